import DurableDownloadsExample
import FeedbackLoop
import FeedbackLoopDurable
import FeedbackLoopMonitorClient
import FeedbackLoopSQLite
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The durable download manager, in a terminal. Interactive: it downloads
/// on the real clock, and the person kills it (`k`, Control-C, `kill -9`)
/// and runs it again, and it resumes. Scripted: it runs the downloads in a
/// child process of its own, kills it with SIGKILL at a seeded moment,
/// starts it again, and checks the journal (``DurableDownloadsCheck``).
enum DurableDownloadsDemo {
  static let example = Example(
    name: "durable-downloads",
    summary:
      "A download manager that survives kill -9: a durable system on SQLite, with retries, a retry timer and idempotency keys; kill it, run it again, and it resumes",
    run: run
  )

  static let bindings = [
    KeyBinding(keys: "n", action: "add a download"),
    KeyBinding(keys: "k", action: "kill -9 this process (then run the same command again)"),
  ]

  /// The files every session starts with.
  static let startingFiles: [(name: String, chunks: Int)] = [("atlas.iso", 6), ("notes.pdf", 3), ("music.flac", 4)]

  /// How fast the server answers and how long a retry waits.
  struct Pace {
    var latency: Duration
    var responseTime: Duration
    var retryAfter: Duration

    static let interactive = Pace(
      latency: .milliseconds(500), responseTime: .milliseconds(200), retryAfter: .seconds(2))
    /// The scripted session's child: fast, so that the session ends in a few seconds, but with an answer
    /// slow enough on its way back that the parent's kill, which follows a "served" line, comes before
    /// the child has it.
    static let scripted = Pace(
      latency: .milliseconds(40), responseTime: .milliseconds(150), retryAfter: .milliseconds(150))
  }

  typealias Downloads = DurableSystem<DurableDownloads.State, DurableDownloads.Event>

  static func run(_ session: ExampleSession) async throws {
    if let timeline = session.durable.timelinePath {
      try await writeTimeline(session, to: timeline)
    } else if session.durable.isChild {
      try await runChild(session)
    } else if session.isInteractive {
      try await runInteractive(session)
    } else {
      try await runScripted(session)
    }
  }

  // MARK: - The timeline

  static func describe(_ state: DurableDownloads.State) -> String {
    guard !state.files.isEmpty else { return "no downloads" }
    let files = state.files.map { file -> String in
      if file.isDone { return "\(file.name) done" }
      let progress = "\(file.name) \(file.received)/\(file.chunks)"
      return file.retryAt.map { "\(progress) retry at \(clockTime($0))" } ?? progress
    }
    return files.joined(separator: " · ") + (state.isFinished ? "  (all done)" : "")
  }

  static func describe(_ event: DurableDownloads.Event) -> String {
    switch event {
    case .added(let name, let chunks): "added(\(name), \(chunks) chunks)"
    case .received(let name, let chunk): "received(\(name) chunk \(chunk))"
    case .failed(let name, let chunk, let retryAt): "failed(\(name) chunk \(chunk), retry at \(clockTime(retryAt)))"
    case .retryDue(let now): "retryDue(\(clockTime(now)))"
    }
  }

  /// `14:02:07.315`: the time of day of a wall-clock instant, in UTC.
  static func clockTime(_ instant: WallClock.Instant) -> String {
    let milliseconds = instant.nanosecondsSinceUnixEpoch / 1_000_000
    let (seconds, millisecond) = milliseconds.quotientAndRemainder(dividingBy: 1_000)
    let ofDay = ((seconds % 86_400) + 86_400) % 86_400
    func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
    let fraction = String(abs(millisecond))
    return "\(two(ofDay / 3_600)):\(two(ofDay / 60 % 60)):\(two(ofDay % 60))."
      + String(repeating: "0", count: 3 - fraction.count) + fraction
  }

  static func makePrinter(_ session: ExampleSession) -> TimelinePrinter<DurableDownloads.State, DurableDownloads.Event>
  {
    TimelinePrinter(console: session.console, now: RealTime().now, describeState: describe, describeEvent: describe)
  }

  // MARK: - Restoring

  /// Restores the downloads from the journal in `directory` and starts them,
  /// saying what the journal held and what the restored state resumes.
  static func open(
    _ session: ExampleSession, directory: String, pace: Pace,
    printer: TimelinePrinter<DurableDownloads.State, DurableDownloads.Event>
  ) async throws -> Downloads {
    let journal = try SQLiteJournal(path: directory + "/journal.sqlite")
    let clock = WallClock()
    let server = DownloadServer(
      latency: pace.latency, responseTime: pace.responseTime, clock: clock, dropping: .seeded(session.durable.seed),
      served: try ServedRequests(path: directory + "/served.log")
    ) { printer.note("server", $0) }
    let restored = StartingState()
    let stored = try await journal.load(DurableDownloads.systemID)
    if let stored {
      let snapshot = stored.snapshot.map { "the snapshot at \($0.sequence), then " } ?? ""
      printer.note(
        "journal",
        "sequence \(stored.lastSequence) stored: restoring from \(snapshot)\(stored.events.count) events")
    } else {
      printer.note("journal", "nothing stored yet: a new download manager")
    }
    let downloads = try await Downloads.restore(
      id: DurableDownloads.systemID, writer: JournalWriter(journal: journal), initial: DurableDownloads.State(),
      reduce: DurableDownloads.reduce,
      feedbacks: DurableDownloads.feedbacks(server: server, clock: clock, retryAfter: pace.retryAfter),
      snapshots: .every(5), environment: SystemEnvironment(clock: clock),
      monitor: .combining([try await session.monitor(printer, name: example.name), restored.monitor]))
    if let stored, let state = restored.state {
      printer.note("journal", "restored at sequence \(stored.lastSequence): \(resumed(state))")
    }
    return downloads
  }

  /// The state the system started with: the restored one, which the effects
  /// may have moved on from by the time `restore` returns.
  final class StartingState: Sendable {
    private let started = Mutex<DurableDownloads.State?>(nil)

    var state: DurableDownloads.State? { started.withLock { $0 } }

    var monitor: SystemMonitor<DurableDownloads.State, DurableDownloads.Event> {
      SystemMonitor { [self] activity in
        if case .started(let state) = activity { started.withLock { $0 = state } }
      }
    }
  }

  /// What a restored state starts again: its chunks in flight, its retry timer.
  static func resumed(_ state: DurableDownloads.State) -> String {
    let fetches = state.chunkRequests.sorted { $0.description < $1.description }.map { "fetch \($0)" }
    let timer = state.nextRetry.map { ["the retry timer, due at \(clockTime($0))"] } ?? []
    let effects = fetches + timer
    return effects.isEmpty ? "no effect to resume" : "effects resumed: " + effects.joined(separator: ", ")
  }

  static func addStartingFiles(to downloads: Downloads) {
    guard downloads.state.files.isEmpty else { return }
    for file in startingFiles { downloads.send(.added(name: file.name, chunks: file.chunks)) }
  }

  // MARK: - The journal as a timeline

  /// Folds the journal in the session's folder through the example's
  /// reducer and writes the timeline, with every state, for
  /// `feedbackloop-monitor FILE.jsonl`: what the monitor cannot compute
  /// from the journal without the example's code.
  static func writeTimeline(_ session: ExampleSession, to path: String) async throws {
    let directory =
      session.durable.directory
      ?? FileManager.default.temporaryDirectory.appendingPathComponent("feedbackloop-durable-downloads").path
    let journalPath = directory + "/journal.sqlite"
    guard FileManager.default.fileExists(atPath: journalPath) else {
      throw ChildProcessFailure("no journal at \(journalPath): run the example first, or give its --data-directory")
    }
    let journal = try SQLiteJournal(path: journalPath)
    defer { try? journal.close() }
    let written = try await JournalTimeline.write(
      of: DurableDownloads.systemID, in: journal, initial: DurableDownloads.State(), reduce: DurableDownloads.reduce,
      to: URL(fileURLWithPath: path))
    session.console.line(
      "wrote \(path): \(written) moments (the start and \(written - 1) stored events, each with its state); "
        + "open it with feedbackloop-monitor \(path)")
  }

  // MARK: - Interactive

  static func runInteractive(_ session: ExampleSession) async throws {
    let directory =
      session.durable.directory
      ?? FileManager.default.temporaryDirectory.appendingPathComponent("feedbackloop-durable-downloads").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    example.printHeader(
      session,
      time: Example.interactiveTime + "\n"
        + "The server serves a chunk in 0.5 s, its answer arrives 0.2 s later; it drops some connections, "
        + "and a dropped chunk is retried 2 s later, then 4 s.\n"
        + "The journal and the server's table of served requests are in \(directory) (remove it to start over).\n"
        + "Kill this process (pid \(getpid())) as you like: k, Control-C, or kill -9 \(getpid()) from another terminal; "
        + "then run the same command again, and it resumes where it was.")
    let printer = makePrinter(session)
    let downloads = try await open(session, directory: directory, pace: .interactive, printer: printer)
    addStartingFiles(to: downloads)
    await Interactive.run(session, bindings: bindings) { key in
      switch key {
      case .character("n"):
        let number = downloads.state.files.count + 1
        downloads.send(.added(name: "file-\(number).bin", chunks: 4))
      case .character("k"):
        printer.note("kill", "kill -9 \(getpid()): run the same command again to resume")
        TerminalKeys.restoreTerminal()
        kill(getpid(), SIGKILL)
      default: return .unknown
      }
      return .handled
    }
    try? await downloads.waitForCommit()
    downloads.stop()
    session.console.line(
      "\nStopped at sequence \(downloads.committedSequence), stored. Run the same command again to resume.")
  }

  // MARK: - The scripted session's child

  /// Runs the downloads until every file is done, then prints the final
  /// state, stored, as a `final JSON` line for the parent to check.
  static func runChild(_ session: ExampleSession) async throws {
    guard let directory = session.durable.directory else {
      throw ChildProcessFailure("the durable example's child needs --data-directory")
    }
    let printer = makePrinter(session)
    let downloads = try await open(session, directory: directory, pace: .scripted, printer: printer)
    addStartingFiles(to: downloads)
    while !downloads.state.isFinished {
      if let failure = downloads.failure { throw failure }
      try await Task.sleep(for: .milliseconds(5))
    }
    try await downloads.waitForCommit()
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    session.console.line(finalPrefix + String(decoding: try encoder.encode(downloads.state), as: UTF8.self))
    downloads.stop()
  }

  /// The child's last line: `final ` and its state, in JSON.
  static let finalPrefix = "final "

  // MARK: - Scripted

  static func runScripted(_ session: ExampleSession) async throws {
    let seed = session.durable.seed
    let killAfter = killMoment(seed: seed)
    example.printHeader(
      session,
      time: "Scripted session (seed \(seed)): a child process of this program runs the downloads on the real clock "
        + "(the server serves a chunk in 40 ms, its answer takes 150 ms to come back); this process kills it with SIGKILL "
        + "when the server has served its \(ordinal(killAfter)) chunk, before the answer arrives, "
        + "starts it again on the same journal, and checks what it stored.")
    let ownsDirectory = session.durable.directory == nil
    let directory = try session.durable.directory ?? makeTemporaryDirectory()
    defer { if ownsDirectory { try? FileManager.default.removeItem(atPath: directory) } }
    guard !FileManager.default.fileExists(atPath: directory + "/journal.sqlite") else {
      throw ChildProcessFailure(
        "the scripted session starts from an empty folder, and \(directory) holds a journal: "
          + "give another --data-directory, or leave it out")
    }
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let executable = currentExecutable()
    let arguments = [
      example.name, "--child", "--scripted", "--data-directory", directory, "--seed", String(seed),
    ]

    say(
      session,
      "Run 1: the child starts three downloads. It is killed with SIGKILL once the server has served its \(ordinal(killAfter)) chunk."
    )
    let first = try ChildProcess(
      executable: executable, arguments: arguments, standardErrorPath: directory + "/child-1.log")
    var served = 0
    var killed = false
    for await line in first.outputLines {
      session.console.line("  1 │ " + line)
      if line.contains(servedMark) {
        served += 1
        if served == killAfter {
          killed = first.kill()
          break
        }
      }
    }
    if killed {
      session.console.line(
        "  1 ✝ killed with SIGKILL (pid \(first.pid)): whatever it had not stored is lost, its requests in flight are cut"
      )
    } else {
      let status = await first.waitForExit()
      let errors = (try? String(contentsOfFile: directory + "/child-1.log", encoding: .utf8)) ?? ""
      throw ChildProcessFailure("the child ended before it was killed (status \(status)): \(errors.suffix(2_000))")
    }

    say(
      session,
      "Run 2: the same program on the same journal. It restores the stored state, and starts again what that state asks for: "
        + "the requests in flight, each with the idempotency key it had, and the retry timer, at its original deadline."
    )
    let second = try ChildProcess(
      executable: executable, arguments: arguments, standardErrorPath: directory + "/child-2.log")
    let watchdog = Task {
      try await Task.sleep(for: .seconds(60))
      second.kill()
    }
    defer { watchdog.cancel() }
    var finalState: DurableDownloads.State?
    var answeredFromTable = 0
    for await line in second.outputLines {
      if line.hasPrefix(finalPrefix) {
        finalState = try JSONDecoder().decode(
          DurableDownloads.State.self, from: Data(line.dropFirst(finalPrefix.count).utf8))
        continue
      }
      if line.contains("was served before") { answeredFromTable += 1 }
      session.console.line("  2 │ " + line)
    }
    let status = await second.waitForExit()
    guard status == 0, let finalState else {
      let errors = (try? String(contentsOfFile: directory + "/child-2.log", encoding: .utf8)) ?? ""
      throw ChildProcessFailure("the restarted child failed (status \(status)): \(errors.suffix(2_000))")
    }
    session.console.line("  2 ■ ended: \(describe(finalState))")

    say(session, "The check, on what the two runs left in the journal and in the server's table:")
    let report = try await DurableDownloadsCheck.run(
      directory: directory, finalState: finalState, answeredFromTable: answeredFromTable)
    session.console.lines(report.lines)
    guard report.passed else { throw DurableDownloadsCheck.Failure(lines: report.lines) }
    session.console.line(
      "\nIn a terminal, run it without --scripted, kill it yourself (k, Control-C, kill -9), and run it again.")
  }

  static func say(_ session: ExampleSession, _ text: String) {
    session.console.lines(["", "  ── \(text)"])
  }

  /// How many chunks the server serves before the scripted session kills
  /// its child: 2 to 8, as the seed says.
  static func killMoment(seed: UInt64) -> Int { 2 + Int(mix(seed) % 7) }

  /// What the server's line says of a chunk served.
  static let servedMark = ": served, key "

  static func ordinal(_ number: Int) -> String {
    switch number {
    case 1: "1st"
    case 2: "2nd"
    case 3: "3rd"
    default: "\(number)th"
    }
  }

  /// SplitMix64's mixing of `seed`: the kill's moment.
  static func mix(_ seed: UInt64) -> UInt64 {
    var z = seed &+ 0x9e37_79b9_7f4a_7c15
    z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
    z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
    return z ^ (z >> 31)
  }

  static func makeTemporaryDirectory() throws -> String {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("feedbackloop-durable-downloads-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  /// This program's executable, which the scripted session starts as its child.
  static func currentExecutable() -> String {
    #if os(Linux)
      if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
    #endif
    return Bundle.main.executablePath ?? CommandLine.arguments[0]
  }
}
