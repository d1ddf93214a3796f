import FeedbackLoop
import FeedbackLoopTesting
import Foundation
import Testing

/// The library's one lock, `Locked`, from several threads at once: no
/// update is lost, and (under `--sanitize=thread`) the sanitizer sees each
/// holder hand the value to the next.
@Suite(.runsLeftoverJobs) struct LockedTests {
  static let threads = 4
  static let rounds = 10_000

  /// Runs `body` on `threads` new threads (not the cooperative pool's) and
  /// returns when all have ended, suspending the calling task meanwhile.
  static func onThreads(_ body: @escaping @Sendable () -> Void) async {
    let finished = DispatchGroup()
    for _ in 0..<threads {
      finished.enter()
      let thread = Thread {
        body()
        finished.leave()
      }
      thread.start()
    }
    await withCheckedContinuation { continuation in
      finished.notify(queue: .global()) { continuation.resume() }
    }
  }

  @Test("a value guarded by Locked loses no update when four threads change it at once")
  func valueFromThreads() async {
    let count = Locked(0)
    await Self.onThreads {
      for _ in 0..<Self.rounds { count.withLock { $0 += 1 } }
    }
    #expect(count.withLock { $0 } == Self.threads * Self.rounds)
  }

  @Test("a Lock guarding its owner's field loses no update when four threads change it at once")
  func ownerFieldFromThreads() async {
    final class Counter: @unchecked Sendable {
      // Sendable: `value` is read and written only while `lock` is held.
      let lock = Lock()
      var value = 0
    }
    let counter = Counter()
    await Self.onThreads {
      for _ in 0..<Self.rounds { counter.lock.withLock { counter.value += 1 } }
    }
    #expect(counter.lock.withLock { counter.value } == Self.threads * Self.rounds)
  }

  /// A bare `Mutex` hands a contended lock over where ThreadSanitizer does not
  /// look, so the sanitizer run reports races that are not there (as it did
  /// for the chart-state decoder table): every module takes `Locked` instead,
  /// or makes the same hand-over edge beside its own `Mutex`.
  @Test(
    "no module under Sources/ holds a bare Mutex: each takes Locked, or makes its hand-over edge, which the sanitizer sees"
  )
  func noBareMutex() throws {
    let sources = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Sources")
    let files =
      FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?
      .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
    #expect(files.count > 100, "too few sources under \(sources.path)")
    var offending: [String] = []
    for file in files where file.lastPathComponent != "Locked.swift" {
      let text = try String(contentsOf: file, encoding: .utf8)
      // A type that keeps its Mutex inline (to save an allocation) makes the
      // same hand-over edge as Locked.
      if text.contains("handOver.load(ordering: .acquiring)")
        && text.contains("handOver.store(0, ordering: .releasing)")
      {
        continue
      }
      for line in text.split(separator: "\n") {
        let code = line.trimmingCharacters(in: .whitespaces)
        guard !code.hasPrefix("//") else { continue }
        if code.contains("Mutex(") || code.contains("Mutex<") {
          offending.append("\(file.lastPathComponent): \(code)")
        }
      }
    }
    #expect(offending.isEmpty, "take Locked instead: \(offending)")
  }
}
