// The durable crash test's host, written against `any Journal` (this file is
// linked into the PostgreSQL package; each package's main.swift opens its
// journal and calls `runCrashHost`).
//
// It restores every system of the run, prints each restored state, then
//   - `--mode run`: sends each system `.work(K)` after `.work(K)` with
//     `sendDurably`, writing each acknowledged (system, K) to `acks.log`,
//     fsynced, before the next, until it is killed;
//   - `--mode steps`: waits for commands on its standard input
//     (`send N`: N events to each system, in turn; `exit`); its systems
//     have no effects.
// Every work item's effect writes its idempotency key to `keys.log`, then
// "started" and "finished" to `effects.log`, all fsynced, and says so on the
// standard output.
//
// Its standard output, one line per fact, is what the test waits for:
//   restored SYSTEM STATE-JSON     once per system, before any effect runs
//   ready
//   started SYSTEM K | finished SYSTEM K
//   ack SYSTEM K                   after acks.log holds it
//   refused SYSTEM MESSAGE | failed SYSTEM MESSAGE
//   done                           after each `send` command
import FeedbackLoop
import FeedbackLoopDurable
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

struct CrashHostOptions {
  enum Mode: String {
    case run
    case steps
  }

  var directory = "."
  var generation = 0
  var seed: UInt64 = 0
  var systems = 50
  var systemPrefix = "system-"
  var mode = Mode.run
  var snapshotEvery: UInt64 = 7

  static let usage =
    "options: --dir DIR --generation G --seed S --systems N [--prefix P] [--mode run|steps] [--snapshot-every N]"

  /// Parses `--name value` pairs; exits with the usage on anything else.
  static func parse(_ arguments: ArraySlice<String>) -> CrashHostOptions {
    var options = CrashHostOptions()
    var rest = arguments
    func parsed<Value>(_ value: Value?) -> Value {
      guard let value else { fail(usage) }
      return value
    }
    while let name = rest.popFirst() {
      guard let value = rest.popFirst() else { fail(usage) }
      switch name {
      case "--dir": options.directory = value
      case "--generation": options.generation = parsed(Int(value))
      case "--seed": options.seed = parsed(UInt64(value))
      case "--systems": options.systems = parsed(Int(value))
      case "--prefix": options.systemPrefix = value
      case "--mode": options.mode = parsed(Mode(rawValue: value))
      case "--snapshot-every": options.snapshotEvery = parsed(UInt64(value))
      default: fail(usage)
      }
    }
    return options
  }
}

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data((message + "\n").utf8))
  exit(2)
}

/// One fact on the standard output: one `write(2)` per line, so that lines
/// of concurrent tasks never interleave (a pipe writes up to PIPE_BUF bytes
/// at once).
func say(_ line: String) {
  let bytes = Array((line + "\n").utf8)
  bytes.withUnsafeBytes { buffer in
    var offset = 0
    while offset < buffer.count {
      let written = write(1, buffer.baseAddress! + offset, buffer.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        exit(4)  // the test closed the pipe: it is gone
      }
      offset += written
    }
  }
}

/// An append-only file whose lines are on the disk when `append` returns:
/// one `write(2)` per line, then `fsync`. A kill cannot tear a line the
/// kernel took; a test ignores a last line without its newline all the same.
final class SyncedLog: Sendable {
  private let descriptor: Int32
  private let lock = Mutex(())

  init(path: String) {
    descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
    if descriptor < 0 { fail("cannot open \(path): errno \(errno)") }
  }

  func append(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    lock.withLock { _ in
      let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress!, $0.count) }
      if written != bytes.count { fail("short write to a log: \(written) of \(bytes.count), errno \(errno)") }
      if fsync(descriptor) != 0 { fail("fsync of a log failed: errno \(errno)") }
    }
  }
}

/// Holds every effect until the host has printed the restored states, so
/// that no `.finished` of a resumed effect changes a state before it is
/// printed.
final class StartSignal: Sendable {
  private let waiting = Mutex<(isOpen: Bool, continuations: [CheckedContinuation<Void, Never>])>((false, []))

  func wait() async {
    await withCheckedContinuation { continuation in
      let runsNow = waiting.withLock { waiting in
        if waiting.isOpen { return true }
        waiting.continuations.append(continuation)
        return false
      }
      if runsNow { continuation.resume() }
    }
  }

  func open() {
    let continuations = waiting.withLock { waiting in
      waiting.isOpen = true
      defer { waiting.continuations = [] }
      return waiting.continuations
    }
    for continuation in continuations { continuation.resume() }
  }
}

typealias CrashSystem = DurableSystem<CrashState, CrashEvent>

func runCrashHost(journal: some Journal, options: CrashHostOptions) async throws {
  let effectsLog = SyncedLog(path: options.directory + "/effects.log")
  let acksLog = SyncedLog(path: options.directory + "/acks.log")
  let keysLog = SyncedLog(path: options.directory + "/keys.log")
  let start = StartSignal()
  let writer = JournalWriter(journal: journal)
  var systems: [CrashSystem] = []
  for id in CrashModel.systemIDs(count: options.systems, prefix: options.systemPrefix) {
    let generation = options.generation
    let seed = options.seed
    // Each pending work item runs once at a time; a state restored with
    // items pending starts their effects again (G1).
    let work = Feedback<CrashState, CrashEvent>.requests({ Set($0.pending) }, name: "work") { item in
      .task {
        await start.wait()
        // The effect's idempotency key, which a restored system's effect
        // must have again.
        keysLog.append("\(generation) \(id) \(item) \(DurableEffect.key?.description ?? "none")")
        effectsLog.append("\(generation) \(id) \(item) started")
        say("started \(id) \(item)")
        try await Task.sleep(for: .milliseconds(CrashModel.workMilliseconds(seed: seed, system: id, item: item)))
        effectsLog.append("\(generation) \(id) \(item) finished")
        say("finished \(id) \(item)")
        return .finished(item)
      } catch: { _ in
        nil
      }
    }
    // In steps mode the systems have no effects: the events a test asks for
    // are then the only ones, and which process appends first is the
    // test's choice, never a race with an effect's event.
    let system = try await CrashSystem.restore(
      id: id, writer: writer, initial: CrashState(), reduce: CrashModel.reduce,
      feedbacks: options.mode == .run ? [work] : [],
      snapshots: .every(options.snapshotEvery))
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    say("restored \(id) \(String(decoding: try encoder.encode(system.state), as: UTF8.self))")
    systems.append(system)
  }
  start.open()
  say("ready")

  /// Sends the system's next work item durably; false once it cannot.
  @Sendable func sendNext(_ system: CrashSystem, _ item: Int) async -> Bool {
    do {
      try await system.sendDurably(.work(item))
    } catch let error as DurableSystemError {
      if case .refusedByJournal = error {
        say("refused \(system.id) \(error)")
      } else {
        say("failed \(system.id) \(error)")
      }
      return false
    } catch {
      say("failed \(system.id) \(error)")
      return false
    }
    acksLog.append("\(system.id) \(item)")
    say("ack \(system.id) \(item)")
    return true
  }

  switch options.mode {
  case .run:
    await withTaskGroup(of: Void.self) { group in
      for system in systems {
        group.addTask {
          var item = system.state.workCount + 1
          while await sendNext(system, item) { item += 1 }
        }
      }
    }
    fail("every system of the run failed")
  case .steps:
    var next = systems.map { $0.state.workCount + 1 }
    for await command in standardInputLines() {
      let words = command.split(separator: " ")
      if words == ["exit"] { break }
      guard words.count == 2, words[0] == "send", let count = Int(words[1]) else {
        fail("unknown command: \(command)")
      }
      for (index, system) in systems.enumerated() {
        for _ in 0..<count {
          guard await sendNext(system, next[index]) else { break }
          next[index] += 1
        }
      }
      say("done")
    }
  }
}

/// The lines of the standard input, read on a thread of their own (a
/// blocking read must not hold one of the few threads of the concurrency
/// pool).
func standardInputLines() -> AsyncStream<String> {
  let (lines, continuation) = AsyncStream<String>.makeStream()
  Thread.detachNewThread {
    while let line = readLine() { continuation.yield(line) }
    continuation.finish()
  }
  return lines
}
