// The durable crash test's harness, written against any journal (this file
// is linked into the PostgreSQL package's tests): it starts
// `durable-crash-host`, kills it with SIGKILL at seeded random moments,
// restarts it, and checks every restart against the acknowledgements, the
// effects' log and the journal's rows.
import FeedbackLoopDurable
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Decodes a journal row written by the host.
func decodeCrashEvent(_ payload: Data) throws -> CrashEvent {
  try JSONDurableCodec().decode(DurableEnvelope<CrashEvent>.self, from: payload).value
}

/// The host, started with `posix_spawn` (Foundation's `Process` was seen to
/// hang in `waitUntilExit` here): its standard input is a pipe the test
/// writes commands to, its standard output a pipe the test reads lines from,
/// its standard error a file. A watchdog kills a host that runs too long, so
/// that a hung host fails the test instead of hanging it.
final class CrashHostProcess {
  let pid: pid_t
  let standardErrorPath: String
  private let input: Int32
  private var lines: AsyncStream<String>.AsyncIterator
  private let exitFlag = ExitFlag()
  /// Every line read, for failure messages.
  private(set) var transcript: [String] = []

  init(executable: String, arguments: [String], standardErrorPath: String, watchdogSeconds: Int = 60) throws {
    var inputPipe: [Int32] = [0, 0]
    var outputPipe: [Int32] = [0, 0]
    var spawnedPID = pid_t()
    let words = [executable] + arguments
    let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    // The pipes are close-on-exec (the child gets its ends by dup2), and made
    // and spawned under one lock: a host started by another test at the same
    // time must not inherit this host's pipes, or this host's output would
    // not end when it dies. (Glibc's module does not export pipe2.)
    let spawned = spawnLock.withLock { _ -> Int32 in
      guard pipe(&inputPipe) == 0, pipe(&outputPipe) == 0 else { return errno }
      for descriptor in inputPipe + outputPipe { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
      var actions = posix_spawn_file_actions_t()
      posix_spawn_file_actions_init(&actions)
      defer { posix_spawn_file_actions_destroy(&actions) }
      posix_spawn_file_actions_adddup2(&actions, inputPipe[0], 0)
      posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
      posix_spawn_file_actions_addopen(&actions, 2, standardErrorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
      let spawned = posix_spawn(&spawnedPID, executable, &actions, nil, argv, environ)
      close(inputPipe[0])
      close(outputPipe[1])
      return spawned
    }
    guard spawned == 0 else {
      close(inputPipe[1])
      close(outputPipe[0])
      throw CrashTestFailure("posix_spawn \(executable) failed: \(spawned)")
    }
    let pid = spawnedPID
    self.pid = pid
    self.standardErrorPath = standardErrorPath
    input = inputPipe[1]
    let output = outputPipe[0]
    let (stream, continuation) = AsyncStream<String>.makeStream()
    lines = stream.makeAsyncIterator()
    Thread.detachNewThread {
      var buffer: [UInt8] = []
      var chunk = [UInt8](repeating: 0, count: 65_536)
      while true {
        let count = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress!, $0.count) }
        if count < 0 && errno == EINTR { continue }
        if count <= 0 { break }
        buffer += chunk[0..<count]
        while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
          continuation.yield(String(decoding: buffer[..<newline], as: UTF8.self))
          buffer.removeSubrange(...newline)
        }
      }
      close(output)
      continuation.finish()
    }
    let exitFlag = self.exitFlag
    DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(watchdogSeconds)) {
      exitFlag.hasExited.withLock { if !$0 { kill(pid, SIGKILL) } }
    }
  }

  deinit {
    close(input)
    exitFlag.hasExited.withLock { exited in
      if !exited {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        exited = true
      }
    }
  }

  /// The next line, or `nil` once the host closed its output (it ended, or
  /// the watchdog killed it).
  func nextLine() async -> String? {
    let line = await lines.next()
    if let line { transcript.append(line) }
    return line
  }

  /// Reads lines until one starts with `prefix`; `nil` when the output ends
  /// first.
  func line(startingWith prefix: String) async -> String? {
    while let line = await nextLine() {
      if line.hasPrefix(prefix) { return line }
    }
    return nil
  }

  func send(_ command: String) {
    let bytes = Array((command + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(input, $0.baseAddress!, $0.count) }
  }

  /// Kills the host with SIGKILL and reaps it; true when the kill is what
  /// ended it (not an exit of its own before).
  func killNow() -> Bool {
    exitFlag.hasExited.withLock { exited in
      guard !exited else { return false }
      kill(pid, SIGKILL)
      var status: Int32 = 0
      while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
      exited = true
      return status & 0x7f == SIGKILL
    }
  }

  /// Pauses the host with SIGSTOP, and returns once the kernel stopped it
  /// (as a machine or a process that only seems dead does).
  func pause() {
    exitFlag.hasExited.withLock { exited in
      guard !exited else { return }
      kill(pid, SIGSTOP)
      var status: Int32 = 0
      while waitpid(pid, &status, WUNTRACED) == -1 && errno == EINTR {}
      if status & 0xff != 0x7f { exited = true }  // not stopped: it ended
    }
  }

  /// Lets a paused host go on (SIGCONT).
  func resume() {
    exitFlag.hasExited.withLock { exited in
      if !exited { kill(pid, SIGCONT) }
    }
  }

  /// What the host wrote to its standard error, for failure messages.
  var standardError: String {
    (try? String(contentsOfFile: standardErrorPath, encoding: .utf8)) ?? ""
  }

  /// The last lines read and the standard error, for failure messages.
  var diagnostics: String {
    "last lines: \(transcript.suffix(5)); standard error: \(standardError.suffix(2_000))"
  }
}

private let spawnLock = Mutex(())

/// Whether the host was reaped, shared with the watchdog, which must not
/// kill a pid that may have been reused.
final class ExitFlag: Sendable {
  let hasExited = Mutex(false)
}

struct CrashTestFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// A folder of the test's own, removed by the caller.
func makeCrashDirectory() throws -> String {
  let path = FileManager.default.temporaryDirectory
    .appendingPathComponent("feedbackloop-crash-\(UUID().uuidString)").path
  try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  return path
}

/// An executable built beside the test binary (the test target depends on
/// its target, so `--build-tests` builds it).
func executableBesideTests(_ name: String) throws -> String {
  let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
  var candidates = [Bundle.main.bundleURL, testBinary.deletingLastPathComponent()]
  for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
    candidates.append(bundle.bundleURL.deletingLastPathComponent())
  }
  for directory in candidates {
    let candidate = directory.appendingPathComponent(name).path
    if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
  }
  throw CrashTestFailure(
    "\(name) is not beside the tests (looked in \(candidates.map(\.path))): build with --build-tests")
}

/// The crash test's settings: the environment's, or CI's defaults.
struct CrashSettings {
  var kills: Int
  var seed: UInt64
  var systems: Int
  /// Each run is killed after a random number of acknowledgements up to
  /// this (and a random pause of up to 2 ms).
  var maximumAcksPerRun: Int
  /// Every this many kills, the checks read every stored row again, not
  /// only the new ones.
  var killsBetweenFullReads: Int

  static func fromEnvironment(defaultKills: Int) -> CrashSettings {
    let environment = ProcessInfo.processInfo.environment
    return CrashSettings(
      kills: environment["FEEDBACKLOOP_DURABLE_CRASH_KILLS"].flatMap(Int.init) ?? defaultKills,
      seed: environment["FEEDBACKLOOP_DURABLE_CRASH_SEED"].flatMap(UInt64.init)
        ?? UInt64.random(in: 0...UInt64(UInt32.max)),
      systems: environment["FEEDBACKLOOP_DURABLE_CRASH_SYSTEMS"].flatMap(Int.init) ?? 50,
      maximumAcksPerRun: environment["FEEDBACKLOOP_DURABLE_CRASH_ACKS"].flatMap(Int.init) ?? 150,
      killsBetweenFullReads: max(1, environment["FEEDBACKLOOP_DURABLE_CRASH_FULL_READS"].flatMap(Int.init) ?? 50))
  }
}

/// What a crash run counted, for its summary line and RELIABILITY.md.
struct CrashSummary {
  var kills = 0
  var acknowledged = 0
  var storedEvents = 0
  var effectsResumed = 0
  var killedWithEffectsInFlight = 0
  /// Work items whose effect started in more than one run, each time with
  /// the same idempotency key.
  var effectsWithKeyCheckedAcrossRuns = 0
}

/// Each system's stored events, by system id, in order of sequence.
typealias StoredRows = [String: [(sequence: UInt64, payload: Data)]]

/// Reads stored events straight from the backend's tables, not through
/// `load` (which starts at the latest snapshot): of a system in `after`,
/// the events after that sequence; of any other, every one. An empty
/// `after` reads every event of every system.
typealias StoredEventsReader = (_ after: [String: UInt64]) async throws -> StoredRows

/// Runs the host, kills it with SIGKILL at a seeded random moment, restarts
/// it, `settings.kills` times, and checks after each kill and restart:
///
/// - the journal's events of each system are numbered 1, 2, 3... and its
///   `.work` items are 1, 2, 3... (none lost between, none twice), and hold
///   every acknowledged one, in order (0 acknowledged events lost; the
///   journal may also hold events acknowledged to nobody, appended just
///   before a kill), and no row an earlier kill left changed or vanished;
/// - every effect that started (in any run) acted on a stored `.work`: no
///   effect ran for a state a crash could lose (G16);
/// - each restored state equals the fold of the system's stored events;
/// - every effect started and not finished at the kill starts again after
///   the restart (with every other pending one), with the same idempotency
///   key: every start of a work item's effect, in any run, has the key of
///   the stored `.work` that made it pending.
///
/// The checks are incremental (`CrashLedger`): each kill's checks read the
/// logs' new lines and the journal's new rows only, so that a soak's kills
/// do not slow down as the journal grows. Every
/// `settings.killsBetweenFullReads` kills, and after the last kill, every
/// row is read again and must equal what the earlier kills left, byte for
/// byte; in between, a row an earlier kill left that changed or vanished
/// shows in the next restore, which must equal the fold of the rows read.
func runCrashLoop(
  settings: CrashSettings, hostArguments: [String], directory: String,
  readStored: StoredEventsReader
) async throws -> CrashSummary {
  let executable = try executableBesideTests("durable-crash-host")
  let ids = CrashModel.systemIDs(count: settings.systems)
  var random = CrashRandom(state: settings.seed)
  var summary = CrashSummary()
  var ledger = CrashLedger(directory: directory)
  var inFlight: Set<String> = []  // "SYSTEM K" of effects started, not finished, at the last kill
  // A broken host breaks the checks of every system at once: the run
  // records the first few and stops at the end of that kill's checks,
  // rather than record thousands of issues.
  var failedChecks = 0
  func check(_ condition: Bool, _ message: @autoclosure () -> String, sourceLocation: SourceLocation = #_sourceLocation)
  {
    guard !condition else { return }
    failedChecks += 1
    if failedChecks <= 20 { Issue.record(Comment(rawValue: message()), sourceLocation: sourceLocation) }
  }
  func stopIfAnyCheckFailed(_ context: String) throws {
    guard failedChecks > 0 else { return }
    throw CrashTestFailure(
      "\(context): \(failedChecks) checks failed (the first 20 are recorded); the run stops here")
  }

  for generation in 0...settings.kills {
    let context = "run \(generation) (FEEDBACKLOOP_DURABLE_CRASH_SEED=\(settings.seed))"
    if generation > 0 && generation % 100 == 0 { printNow("[durable crash] \(context) starts") }
    let host = try CrashHostProcess(
      executable: executable,
      arguments: hostArguments + [
        "--dir", directory, "--generation", String(generation), "--seed", String(random.next() >> 1),
        "--systems", String(settings.systems),
      ],
      standardErrorPath: directory + "/stderr-\(generation).log")

    // The restored states, each the fold of what the last kill left stored.
    var restored: [String: CrashState] = [:]
    var started: Set<String> = []
    var acks = 0
    readRestore: while let line = await host.nextLine() {
      let words = line.split(separator: " ", maxSplits: 2).map(String.init)
      switch words.first {
      case "restored":
        restored[words[1]] = try JSONDecoder().decode(CrashState.self, from: Data(words[2].utf8))
      case "started": started.insert(words[1] + " " + words[2])
      case "ready": break readRestore
      case "finished": break
      default: throw CrashTestFailure("\(context): unexpected line before ready: \(line)")
      }
    }
    try #require(restored.count == ids.count, "\(context): restored \(restored.count) systems; \(host.diagnostics)")
    var expectedStarts: Set<String> = []
    for id in ids {
      let fold = ledger.fold(of: id)
      check(restored[id] == fold, "\(context): \(id) restored \(restored[id]!), its stored events fold to \(fold)")
      for item in fold.pending { expectedStarts.insert("\(id) \(item)") }
    }
    check(
      inFlight.isSubset(of: expectedStarts),
      "\(context): effects in flight at the kill but not pending after it: \(inFlight.subtracting(expectedStarts))")
    try stopIfAnyCheckFailed(context)
    if !inFlight.isEmpty { summary.killedWithEffectsInFlight += 1 }
    summary.effectsResumed += inFlight.count

    // Every pending effect starts again; then the run goes on until it is
    // killed after a random number of acknowledgements.
    // The last run is only restored and checked.
    let isLast = generation == settings.kills
    let afterAcks = isLast ? 0 : Int.random(in: 1...max(1, settings.maximumAcksPerRun), using: &random)
    let pause = isLast ? 0 : UInt32.random(in: 0...2_000, using: &random)
    while !expectedStarts.isSubset(of: started) || acks < afterAcks {
      guard let line = await host.nextLine() else {
        Issue.record(
          "\(context): the host ended; effects not started again: \(expectedStarts.subtracting(started).sorted().prefix(10)); \(host.diagnostics)"
        )
        throw CrashTestFailure("\(context): the host ended")
      }
      let words = line.split(separator: " ", maxSplits: 2).map(String.init)
      switch words.first {
      case "started": started.insert(words[1] + " " + words[2])
      case "ack": acks += 1
      case "refused", "failed": throw CrashTestFailure("\(context): \(line)")
      default: break
      }
    }
    if pause > 0 { usleep(pause) }
    try #require(host.killNow(), "\(context): the host ended before the kill; \(host.diagnostics)")
    if isLast { break }
    summary.kills += 1

    // What the kill left: the logs, fsynced by the host, and the journal.
    let context2 = "after the kill of \(context)"
    let changes = try ledger.readAppendedLogs()
    let readsEveryRow = (generation + 1) % settings.killsBetweenFullReads == 0 || generation + 1 == settings.kills
    let changedRows =
      readsEveryRow
      ? try ledger.takeEveryRow(try await readStored([:]))
      : try ledger.takeNewRows(try await readStored(ledger.lastSequences))
    for change in changedRows { check(false, "\(context2): \(change)") }
    summary.acknowledged = ledger.acknowledgedCount
    summary.storedEvents = ledger.storedCount
    inFlight = ledger.startedNotFinished(inRun: generation)
    for id in ids {
      for problem in ledger.problemsOfStoredEvents(of: id) { check(false, "\(context2): \(problem)") }
    }
    // Every start of a work item's effect, in every run, has one key: the
    // system's id, the sequence of the `.work` that made the item pending,
    // the feedback's name and the item.
    for effect in changes.effectsWithNewKeys {
      let keys = ledger.keys[effect, default: []]
      let words = effect.split(separator: " ")
      let sequence = ledger.sequenceOfWork(effect)
      let expected = sequence.map { "\(words[0])/\($0)/work/\(words[1])" }
      check(
        Set(keys.map(\.key)) == Set(expected.map { [$0] } ?? []),
        "\(context2): the effect of \(effect) had the keys \(keys) (run, key); its .work is stored at \(sequence.map(String.init) ?? "no sequence")"
      )
    }
    summary.effectsWithKeyCheckedAcrossRuns = ledger.effectsStartedInSeveralRuns
    let startedWithoutWork = changes.effectsStarted.filter { ledger.sequenceOfWork($0) == nil }
    check(
      startedWithoutWork.isEmpty,
      "\(context2): effects started for work that is not stored (G16): \(startedWithoutWork.sorted().prefix(10))")
    try stopIfAnyCheckFailed(context2)
  }
  return summary
}

/// Prints a line at once: `swift test` buffers a test's standard output
/// when it goes to a pipe or a file, and a soak's progress and seed must
/// survive the run being cut short.
func printNow(_ line: String) {
  print(line)
  fflush(nil)  // every stream: `stdout` is a C global that Swift 6 cannot read safely
}

/// What the crash test learned from the logs and the journal, kill after
/// kill. Each kill adds what the runs since the last one wrote: the logs'
/// new lines, and the journal's new rows (`takeNewRows`); now and then
/// every row is read again, and those an earlier kill left must be there
/// unchanged (`takeEveryRow`). Only new rows are decoded and folded.
struct CrashLedger {
  /// The acknowledged items of each system, in order.
  private(set) var acknowledged: [String: [Int]] = [:]
  private(set) var acknowledgedCount = 0
  /// The keys each work item's effect ("SYSTEM K") had, with the run that
  /// started it.
  private(set) var keys: [String: [(generation: Int, key: String)]] = [:]
  /// The effects with keys from more than one run.
  private var startedInSeveralRuns: Set<String> = []
  var effectsStartedInSeveralRuns: Int { startedInSeveralRuns.count }
  /// The effects started and finished in each run.
  private var started: [Int: Set<String>] = [:]
  private var finished: [Int: Set<String>] = [:]
  /// Each system's rows, as the last kill left them.
  private var rows: StoredRows = [:]
  private(set) var storedCount = 0
  /// The fold of each system's stored events.
  private var folds: [String: CrashState] = [:]
  /// The sequence of each stored `.work`, by "SYSTEM K".
  private var workSequences: [String: UInt64] = [:]
  /// Each system's `.work` items, which must be 1, 2, 3...
  private var workItems: [String: [Int]] = [:]
  private var acksLog: AppendedLines
  private var effectsLog: AppendedLines
  private var keysLog: AppendedLines

  init(directory: String) {
    acksLog = AppendedLines(path: directory + "/acks.log")
    effectsLog = AppendedLines(path: directory + "/effects.log")
    keysLog = AppendedLines(path: directory + "/keys.log")
  }

  /// What the logs' new lines changed.
  struct LogChanges {
    /// The effects ("SYSTEM K") that started again or for the first time.
    var effectsStarted: Set<String> = []
    /// The effects whose keys have a new line.
    var effectsWithNewKeys: Set<String> = []
  }

  /// Reads the lines the host appended to its logs since the last call.
  mutating func readAppendedLogs() throws -> LogChanges {
    var changes = LogChanges()
    // "SYSTEM K" lines.
    for line in try acksLog.readAppended() {
      let words = line.split(separator: " ")
      guard words.count == 2, let item = Int(words[1]) else { throw CrashTestFailure("acks.log: \(line)") }
      acknowledged[String(words[0]), default: []].append(item)
      acknowledgedCount += 1
    }
    // "G SYSTEM K started" and "G SYSTEM K finished" lines.
    for line in try effectsLog.readAppended() {
      let words = line.split(separator: " ").map(String.init)
      guard words.count == 4, let generation = Int(words[0]) else { throw CrashTestFailure("effects.log: \(line)") }
      let effect = words[1] + " " + words[2]
      switch words[3] {
      case "started":
        started[generation, default: []].insert(effect)
        changes.effectsStarted.insert(effect)
      case "finished": finished[generation, default: []].insert(effect)
      default: throw CrashTestFailure("effects.log: \(line)")
      }
    }
    // "G SYSTEM K KEY" lines.
    for line in try keysLog.readAppended() {
      let words = line.split(separator: " ").map(String.init)
      guard words.count == 4, let generation = Int(words[0]) else { throw CrashTestFailure("keys.log: \(line)") }
      let effect = words[1] + " " + words[2]
      if let first = keys[effect]?.first, first.generation != generation { startedInSeveralRuns.insert(effect) }
      keys[effect, default: []].append((generation, words[3]))
      changes.effectsWithNewKeys.insert(effect)
    }
    return changes
  }

  /// The sequence of each system's last row that an earlier kill left.
  var lastSequences: [String: UInt64] { rows.compactMapValues { $0.last?.sequence } }

  /// Takes the rows a kill added: of each system, those after its
  /// `lastSequences` (a reader must not return others); returns what is
  /// wrong with them.
  mutating func takeNewRows(_ stored: StoredRows) throws -> [String] {
    var wrong: [String] = []
    for (id, records) in stored {
      if let last = rows[id]?.last?.sequence, let first = records.first?.sequence, first <= last {
        wrong.append("\(id)'s new rows start at \(first), not after \(last): the reader ignored the last sequences")
        continue
      }
      try fold(records, of: id)
      rows[id, default: []].append(contentsOf: records)
    }
    return wrong
  }

  /// Takes the journal's every row as the kill left them; returns what
  /// changed in rows an earlier kill left (nothing, when the journal is
  /// sound).
  mutating func takeEveryRow(_ stored: StoredRows) throws -> [String] {
    var changed: [String] = []
    for id in Set(rows.keys).subtracting(stored.keys) {
      changed.append("\(id)'s \(rows[id]!.count) stored events vanished")
    }
    for (id, records) in stored {
      let known = rows[id, default: []]
      guard records.count >= known.count else {
        changed.append("\(id) stores \(records.count) events, an earlier kill left \(known.count)")
        continue
      }
      if let index = known.indices.first(where: {
        known[$0].sequence != records[$0].sequence || known[$0].payload != records[$0].payload
      }) {
        changed.append("\(id)'s stored event \(index + 1) changed since an earlier kill")
        continue
      }
      try fold(records[known.count...], of: id)
      rows[id] = records
    }
    return changed
  }

  private mutating func fold(_ records: some Sequence<(sequence: UInt64, payload: Data)>, of id: String) throws {
    for record in records {
      let event = try decodeCrashEvent(record.payload)
      CrashModel.reduce(&folds[id, default: CrashState()], event)
      if case .work(let item) = event {
        workItems[id, default: []].append(item)
        workSequences["\(id) \(item)"] = record.sequence
      }
      storedCount += 1
    }
  }

  /// The fold of `id`'s stored events.
  func fold(of id: String) -> CrashState { folds[id, default: CrashState()] }

  /// The sequence of the stored `.work` of `effect` ("SYSTEM K"), if any.
  func sequenceOfWork(_ effect: String) -> UInt64? { workSequences[effect] }

  /// The effects started and not finished in run `generation`.
  func startedNotFinished(inRun generation: Int) -> Set<String> {
    started[generation, default: []].subtracting(finished[generation, default: []])
  }

  /// What is wrong with `id`'s stored events: a gap or a duplicate in their
  /// sequences or their work items, or an acknowledged item they do not
  /// hold in order.
  func problemsOfStoredEvents(of id: String) -> [String] {
    var problems: [String] = []
    let sequences = rows[id, default: []].lazy.map(\.sequence)
    if !sequences.elementsEqual(stride(from: 1, through: UInt64(sequences.count), by: 1)) {
      problems.append("\(id)'s sequences have a gap or a duplicate")
    }
    let work = workItems[id, default: []]
    if !work.elementsEqual(stride(from: 1, through: work.count, by: 1)) {
      problems.append("\(id)'s work items are \(work)")
    }
    // The acknowledged items are among the stored ones, in their order: a
    // kill may leave stored events that nobody acknowledged between them
    // (appended, not yet answered), never the other way round.
    let acked = acknowledged[id, default: []]
    var unmatched = acked[...]
    for item in work where item == unmatched.first { unmatched.removeFirst() }
    if !unmatched.isEmpty {
      problems.append(
        "\(id) acknowledged \(unmatched.prefix(5)) which the journal does not hold in order; it stores work \(work.suffix(5)) of \(work.count)"
      )
    }
    return problems
  }
}

/// The complete lines appended to a log since the last read ("a last line
/// without its newline" is left for the next read).
struct AppendedLines {
  let path: String
  private var offset: UInt64 = 0

  init(path: String) { self.path = path }

  mutating func readAppended() throws -> [Substring] {
    guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
    defer { try? handle.close() }
    try handle.seek(toOffset: offset)
    let bytes = try handle.readToEnd() ?? Data()
    guard let lastNewline = bytes.lastIndex(of: UInt8(ascii: "\n")) else { return [] }
    let complete = bytes[bytes.startIndex...lastNewline]
    offset += UInt64(complete.count)
    let text = String(decoding: complete, as: UTF8.self)
    return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
  }
}

/// Hosts open the same system, in steps. Each restore claims it, so the
/// latest host owns it and every earlier one is refused with the journal's
/// G17 error naming its epoch: when the newcomer writes first; when the
/// earlier owner writes first, expecting the stored sequence; and when the
/// earlier owner was paused (SIGSTOP) while the newcomer claimed, and goes
/// on (SIGCONT) with an append expecting the stored sequence. Afterwards the
/// journal holds the owners' events only, gapless, once each, and a last
/// host restores their fold.
func runOwnershipCheck(
  hostArguments: [String], directory: String,
  readStored: StoredEventsReader
) async throws {
  let executable = try executableBesideTests("durable-crash-host")
  let system = "owned-0"
  var launched = 0
  func launch() async throws -> (host: CrashHostProcess, restored: CrashState) {
    launched += 1
    let host = try CrashHostProcess(
      executable: executable,
      arguments: hostArguments + [
        "--dir", directory, "--generation", String(launched), "--systems", "1", "--prefix", "owned-",
        "--mode", "steps",
      ],
      standardErrorPath: directory + "/stderr-owner-\(launched).log")
    let restoredLine = try #require(await host.line(startingWith: "restored "), "\(host.diagnostics)")
    let json = restoredLine.split(separator: " ", maxSplits: 2)[2]
    let restored = try JSONDecoder().decode(CrashState.self, from: Data(json.utf8))
    try #require(await host.line(startingWith: "ready") != nil, "\(host.diagnostics)")
    return (host, restored)
  }
  /// Sends one event with the host and returns its answer (`ack ...` or
  /// `refused ...`).
  func sendOne(_ host: CrashHostProcess) async throws -> String {
    host.send("send 1")
    var answer: String?
    while let line = await host.nextLine(), line != "done" { answer = line }
    return try #require(answer, "no answer; \(host.diagnostics)")
  }
  /// The answer of a host whose claim (the `epoch`-th restore) is stale.
  func expectFenced(_ answer: String, epoch: Int) {
    #expect(answer.hasPrefix("refused \(system) "), "\(answer)")
    #expect(answer.contains("refused an append of epoch \(epoch), since the system was claimed again"), "\(answer)")
  }

  let first = try await launch()
  #expect(try await sendOne(first.host) == "ack \(system) 1")
  #expect(try await sendOne(first.host) == "ack \(system) 2")
  // A second process opens the system while the first runs: the first's
  // next append is refused, though it expects the stored sequence (2).
  let second = try await launch()
  #expect(second.restored.workCount == 2)
  expectFenced(try await sendOne(first.host), epoch: 1)
  #expect(try await sendOne(second.host) == "ack \(system) 3")
  expectFenced(try await sendOne(first.host), epoch: 1)
  #expect(try await sendOne(second.host) == "ack \(system) 4")
  // The owner is paused with an event to send waiting in its input; a third
  // process claims the system meanwhile, and writes nothing yet. Resumed,
  // the paused owner appends expecting the stored sequence (4): refused.
  second.host.pause()
  second.host.send("send 1")
  let third = try await launch()
  #expect(third.restored.workCount == 4)
  second.host.resume()
  var resumed: String?
  while let line = await second.host.nextLine(), line != "done" { resumed = line }
  expectFenced(try #require(resumed, "no answer after SIGCONT; \(second.host.diagnostics)"), epoch: 2)
  #expect(try await sendOne(third.host) == "ack \(system) 5")
  expectFenced(try await sendOne(second.host), epoch: 2)
  for host in [first.host, second.host, third.host] { _ = host.killNow() }

  let rows = try await readStored([:])[system, default: []]
  let events = try rows.map { try decodeCrashEvent($0.payload) }
  #expect(rows.map(\.sequence) == [1, 2, 3, 4, 5])
  #expect(events == (1...5).map { .work($0) })
  let fourth = try await launch()
  #expect(fourth.restored == CrashModel.fold(events))
  _ = fourth.host.killNow()
}
