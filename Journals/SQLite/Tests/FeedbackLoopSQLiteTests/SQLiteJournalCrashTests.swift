import FeedbackLoopDurable
import FeedbackLoopSQLite
import Foundation
import GRDB
import Testing

/// Real processes: `journal-crash-writer` appends batches and prints each
/// acknowledged one; the test kills it with SIGKILL at seeded random
/// moments, restarts it, and checks the file after each kill.
///
/// FEEDBACKLOOP_SQLITE_CRASH_KILLS sets the number of kills (8 by default; a
/// soak runs hundreds), FEEDBACKLOOP_SQLITE_CRASH_SEED replays a run whose
/// seed a failure printed.
@Suite("SQLiteJournal crashes")
struct SQLiteJournalCrashTests {
  @Test(
    "G16 a writer killed with SIGKILL at random moments loses no acknowledged batch, stores no partial one, no gap, no duplicate"
  )
  func killedWriter() async throws {
    let environment = ProcessInfo.processInfo.environment
    let kills = environment["FEEDBACKLOOP_SQLITE_CRASH_KILLS"].flatMap(Int.init) ?? 8
    let seed =
      environment["FEEDBACKLOOP_SQLITE_CRASH_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 0...UInt64(UInt32.max))
    print("[crash test] seed \(seed), \(kills) kills (FEEDBACKLOOP_SQLITE_CRASH_SEED=\(seed) replays it)")
    let writer = try crashWriterExecutable()
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path("journal.sqlite")
    var random = SplitMix64(state: seed)
    var acknowledged: [String: UInt64] = [:]
    var stored: [String: UInt64] = [:]
    var totalAcknowledged = 0

    for kill in 1...kills {
      // The moment: after a random number of acknowledged batches, then a
      // random pause of up to 2 ms, so that the kill lands anywhere in the
      // next append (before, inside or after its commit).
      let afterAcks = Int.random(in: 1...60, using: &random)
      let pause = UInt32.random(in: 0...2_000, using: &random)
      let run = try await runAndKill(
        writer, arguments: [path, String(random.next() >> 1)], afterAcks: afterAcks, pauseMicroseconds: pause)
      try #require(
        run.killedBySignal,
        "kill \(kill) (seed \(seed)): the writer ended by itself: \(run.standardError)")
      try #require(run.ready != nil, "kill \(kill) (seed \(seed)): the writer never got ready: \(run.standardError)")
      // The writer starts from what is stored: what the last check saw.
      for system in crashSystems {
        #expect(
          run.ready?[system] == stored[system] ?? 0,
          "kill \(kill) (seed \(seed)): the writer restarted \(system) from \(run.ready?[system] ?? 0), the file held \(stored[system] ?? 0)"
        )
      }
      for (system, through) in run.acks {
        acknowledged[system] = max(acknowledged[system] ?? 0, through)
      }
      totalAcknowledged += run.acks.count

      stored = try await checkFile(path, acknowledged: acknowledged, context: "kill \(kill) (seed \(seed))")
    }
    #expect(totalAcknowledged >= kills, "the writers acknowledged \(totalAcknowledged) batches in all")
    print(
      "[crash test] \(kills) kills, \(totalAcknowledged) acknowledged batches, all stored: \(stored.sorted { $0.key < $1.key })"
    )
  }
}

/// Checks every system of the file: events 1...n without gap or duplicate,
/// each of the system, the last one closing its batch (no partial batch),
/// every acknowledged sequence stored, and the journal's load agreeing.
/// Returns each system's last stored sequence.
private func checkFile(_ path: String, acknowledged: [String: UInt64], context: String) async throws -> [String: UInt64]
{
  let database = try DatabaseQueue(path: path)
  let rows = try await database.read { database in
    try Row.fetchAll(
      database, sql: "SELECT system_id, sequence, payload FROM journal_events ORDER BY system_id, sequence"
    )
    .map {
      (
        system: $0[0] as String, sequence: UInt64($0[1] as Int64),
        payload: String(decoding: $0[2] as Data, as: UTF8.self)
      )
    }
  }
  try database.close()
  let journal = try SQLiteJournal(path: path)
  defer { try? journal.close() }
  var stored: [String: UInt64] = [:]
  for system in crashSystems {
    let events = rows.filter { $0.system == system }
    let last = UInt64(events.count)
    #expect(
      events.map(\.sequence) == Array(stride(from: 1, through: last, by: 1)),
      "\(context): \(system)'s sequences have a gap or a duplicate")
    var batchLast: UInt64 = 0
    for event in events {
      let fields = event.payload.split(separator: ":", maxSplits: 3).map(String.init)
      #expect(
        fields.count >= 3 && fields[0] == system && fields[1] == String(event.sequence),
        "\(context): \(system) \(event.sequence) holds \(event.payload.prefix(40))")
      batchLast = fields.count >= 3 ? UInt64(fields[2]) ?? 0 : 0
    }
    #expect(
      batchLast == last,
      "\(context): \(system)'s last stored event (\(last)) belongs to a batch that ends at \(batchLast): a partial batch"
    )
    #expect(
      last >= acknowledged[system] ?? 0,
      "\(context): \(system) acknowledged \(acknowledged[system] ?? 0), stored \(last)")
    let history = try await journal.load(system)
    #expect(
      (history?.lastSequence ?? 0) == last,
      "\(context): \(system) loads up to \(history?.lastSequence ?? 0), stores \(last)")
    if let snapshot = history?.snapshot {
      #expect(String(decoding: snapshot.payload, as: UTF8.self) == "snapshot:\(system):\(snapshot.sequence)")
      #expect(history?.events.map(\.sequence) == Array(stride(from: snapshot.sequence + 1, through: last, by: 1)))
    }
    stored[system] = last
  }
  return stored
}

/// The systems journal-crash-writer appends to.
let crashSystems = (0..<4).map { "crash-\($0)" }

struct WriterRun {
  var ready: [String: UInt64]?
  var acks: [(system: String, through: UInt64)] = []
  var killedBySignal = false
  var standardError = ""
}

/// Starts the writer, reads its acknowledgements until `afterAcks` of them,
/// pauses, kills it with SIGKILL, and reads what it printed before it died.
/// The blocking reads run on a thread of their own, not on the test's.
private func runAndKill(_ executable: URL, arguments: [String], afterAcks: Int, pauseMicroseconds: UInt32) async throws
  -> WriterRun
{
  try await withCheckedThrowingContinuation { continuation in
    Thread.detachNewThread {
      do {
        continuation.resume(returning: try runAndKillBlocking(executable, arguments, afterAcks, pauseMicroseconds))
      } catch {
        continuation.resume(throwing: error)
      }
    }
  }
}

private func runAndKillBlocking(_ executable: URL, _ arguments: [String], _ afterAcks: Int, _ pause: UInt32) throws
  -> WriterRun
{
  let process = Process()
  process.executableURL = executable
  process.arguments = arguments
  let output = Pipe()
  let errors = Pipe()
  process.standardOutput = output
  process.standardError = errors
  try process.run()
  // A writer that hangs is killed after a minute, and the test fails on
  // what it printed.
  let watchdog = DispatchWorkItem { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
  DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: watchdog)
  defer { watchdog.cancel() }

  var run = WriterRun()
  var buffer = Data()
  func takeLines() {
    while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
      let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
      buffer.removeSubrange(buffer.startIndex...newline)
      let words = line.split(separator: " ").map(String.init)
      if words.first == "ready" {
        run.ready = Dictionary(
          uniqueKeysWithValues: words.dropFirst().map {
            let parts = $0.split(separator: "=")
            return (String(parts[0]), UInt64(parts[1])!)
          })
      } else if words.count == 3, words[0] == "ack", let through = UInt64(words[2]) {
        run.acks.append((words[1], through))
      }
    }
  }
  while run.acks.count < afterAcks {
    let chunk = output.fileHandleForReading.availableData
    if chunk.isEmpty { break }  // the writer ended by itself
    buffer += chunk
    takeLines()
  }
  if pause > 0 { usleep(pause) }
  kill(process.processIdentifier, SIGKILL)
  process.waitUntilExit()
  buffer += output.fileHandleForReading.readDataToEndOfFile()
  takeLines()
  run.killedBySignal = process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
  run.standardError = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  return run
}

/// The writer's executable, built beside the tests (the test target depends
/// on it); FEEDBACKLOOP_CRASH_WRITER names another.
private func crashWriterExecutable() throws -> URL {
  if let path = ProcessInfo.processInfo.environment["FEEDBACKLOOP_CRASH_WRITER"] {
    return URL(fileURLWithPath: path)
  }
  let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
  var candidates = [Bundle.main.bundleURL, testBinary.deletingLastPathComponent()]
  // On Apple platforms the tests are a bundle: .build/debug/X.xctest/Contents/MacOS/X.
  for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
    candidates.append(bundle.bundleURL.deletingLastPathComponent())
  }
  for directory in candidates {
    let candidate = directory.appendingPathComponent("journal-crash-writer")
    if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
  }
  throw SetupFailure(
    "journal-crash-writer is not beside the tests (looked in \(candidates.map(\.path))): build with --build-tests")
}

struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
