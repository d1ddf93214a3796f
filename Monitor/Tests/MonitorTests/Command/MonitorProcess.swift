import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The real `feedbackloop-monitor` executable, run as a user runs it, its
/// standard output and error sent to pipes (not a terminal). Killed after
/// `timeLimit` of real time whatever happens, so that a monitor that never
/// says what a test waits for ends the test with what it did say.
final class MonitorProcess: @unchecked Sendable {
  // Sendable: `captured` is only touched while `lock` is held; `process` is
  // set up before it runs, then only read.
  private let process = Process()
  private let lock = NSLock()
  private var captured = Captured()
  private let changes: AsyncStream<Void>
  private let changed: AsyncStream<Void>.Continuation

  private struct Captured {
    var output = Data()
    var errors = Data()
    var openPipes = 2
  }

  /// The executable, built beside this test bundle (`swift build --build-tests` builds it).
  static var executable: URL? {
    var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
      let candidate = folder.appendingPathComponent("feedbackloop-monitor")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      folder = folder.deletingLastPathComponent()
    }
    return nil
  }

  static var isAvailable: Bool { executable != nil }

  struct NotBuilt: Error, CustomStringConvertible {
    var description: String { "feedbackloop-monitor is not built beside the tests: swift build --build-tests" }
  }

  init(_ arguments: [String], timeLimit: Duration = .seconds(30)) throws {
    guard let executable = Self.executable else { throw NotBuilt() }
    (changes, changed) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    process.executableURL = executable
    process.arguments = arguments
    process.standardInput = FileHandle.nullDevice
    let outputPipe = Pipe()
    let errorPipe = Pipe()
    process.standardOutput = outputPipe
    process.standardError = errorPipe
    capture(outputPipe, into: \.output)
    capture(errorPipe, into: \.errors)
    try process.run()
    let process = process
    Task.detached {
      try? await Task.sleep(for: timeLimit)
      if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
  }

  private func capture(_ pipe: Pipe, into field: WritableKeyPath<Captured, Data> & Sendable) {
    pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
      let data = handle.availableData
      if data.isEmpty { handle.readabilityHandler = nil }
      guard let self else { return }
      let ended = lock.withLock {
        if data.isEmpty {
          captured.openPipes -= 1
        } else {
          captured[keyPath: field].append(data)
        }
        return captured.openPipes == 0
      }
      changed.yield()
      if ended { changed.finish() }
    }
  }

  /// What it wrote to standard output so far.
  var standardOutput: String { lock.withLock { String(decoding: captured.output, as: UTF8.self) } }
  /// What it wrote to standard error so far.
  var standardError: String { lock.withLock { String(decoding: captured.errors, as: UTF8.self) } }

  /// Waits until standard output holds a line that satisfies `found`; nil
  /// when both outputs end first (the monitor exited, or was killed at its
  /// time limit).
  func line(where found: (String) -> Bool) async -> String? {
    var lines: [String] { standardOutput.split(separator: "\n").map(String.init) }
    if let line = lines.first(where: found) { return line }
    for await _ in changes {
      if let line = lines.first(where: found) { return line }
    }
    return lines.first(where: found)
  }

  /// Sends SIGTERM, as `kill` does.
  func terminate() { process.terminate() }

  /// Waits for the process to end (at the latest at its time limit) and for
  /// all it wrote; returns its status: the exit code, or 128 + the signal
  /// that ended it, as a shell reports it.
  func exitStatus() async -> Int32 {
    for await _ in changes {}
    while process.isRunning { try? await Task.sleep(for: .milliseconds(20)) }
    return process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
  }
}
