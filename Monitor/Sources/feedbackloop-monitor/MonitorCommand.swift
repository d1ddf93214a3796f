import ArgumentParser
import FeedbackLoopDebugging
import FeedbackLoopMonitorProtocol
import FeedbackLoopSQLite
import Foundation
import GRDB
import MonitorServer

/// `feedbackloop-monitor`: serves the page on loopback (unless `--host` says
/// otherwise), waits for applications, and opens FILE.jsonl, a timeline a
/// recorder wrote, or a durable system's SQLite journal, when given.
@main
struct MonitorCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "feedbackloop-monitor",
    abstract: "A web page that shows a running FeedbackLoop system's timeline and drives it.",
    discussion: """
      Prints the page's address, with this run's secret, and the line an application \
      needs to connect; with --info-file, also writes them as JSON for a script to read.
      """
  )

  @Option(help: "Where to listen. Loopback by default: the monitor can change a running app's state.")
  var host = "127.0.0.1"

  @Option(help: "The page's port (0: any free port).")
  var port = 7_070

  @Option(help: "The applications' port (0: any free port).")
  var appPort = 7_071

  @Option(
    help: ArgumentHelp(
      "Write the page's address, the secret and the ports to this file, as JSON.",
      discussion: "Readable by you only; removed when the monitor is stopped with Control-C or SIGTERM.",
      valueName: "path"))
  var infoFile: String?

  @Argument(
    help: ArgumentHelp(
      "A timeline a recorder wrote (JSON lines), or a durable system's SQLite journal, to open.",
      valueName: "file.jsonl|journal.sqlite"))
  var file: String?

  @Option(
    help: ArgumentHelp(
      "The durable system to open from a SQLite journal.",
      discussion: "Left out, the journal's only system is opened; with several, the monitor lists them and stops.",
      valueName: "id"))
  var system: String?

  func validate() throws {
    for (name, value) in [("--port", port), ("--app-port", appPort)] where !(0...65_535).contains(value) {
      throw ValidationError("\(name) must be between 0 and 65535, not \(value).")
    }
    if let file, !FileManager.default.isReadableFile(atPath: file) {
      throw ValidationError("cannot read \(file): no such file, or not readable.")
    }
    if system != nil, file.map(Self.isSQLite) != true {
      throw ValidationError("--system goes with a SQLite journal to open.")
    }
  }

  /// Whether the file at `path` is a SQLite database (its header says so).
  static func isSQLite(_ path: String) -> Bool {
    guard let handle = FileHandle(forReadingAtPath: path) else { return false }
    defer { try? handle.close() }
    return (try? handle.read(upToCount: 16)) == Data("SQLite format 3\u{0}".utf8)
  }

  /// The session of `system` (or of the journal's only system) in the
  /// journal at `path`.
  func journalSession(_ path: String) async throws -> (system: String, session: TimelineFile<JSONValue, JSONValue>) {
    // Read-only first: opening a SQLiteJournal creates its tables, which must
    // not happen to another application's database.
    var readOnly = Configuration()
    readOnly.readonly = true
    let reader = try DatabaseQueue(path: path, configuration: readOnly)
    let isJournal = try await reader.read { try $0.tableExists("journal_events") && $0.tableExists("journal_systems") }
    try reader.close()
    guard isJournal else {
      throw RunError(
        description: "\(path) is a SQLite database, but not a durable system's journal (no journal_events table)")
    }
    let journal = try SQLiteJournal(path: path)
    defer { try? journal.close() }
    let ids = try await JournalSession.systemIDs(in: journal)
    let id: String
    if let system {
      guard ids.contains(system) else {
        throw RunError(description: "\(path) holds no system \"\(system)\"; it holds: \(Self.listing(ids))")
      }
      id = system
    } else if ids.count == 1 {
      id = ids[0]
    } else {
      throw RunError(
        description: ids.isEmpty
          ? "\(path) is a journal with no system stored"
          : "\(path) holds \(ids.count) systems: open one with --system ID; they are: \(Self.listing(ids))")
    }
    return (id, try await JournalSession.timeline(of: id, in: journal))
  }

  static func listing(_ ids: [String]) -> String {
    ids.count <= 50 ? ids.joined(separator: ", ") : ids.prefix(50).joined(separator: ", ") + ", … (\(ids.count) in all)"
  }

  func run() async throws {
    let server = MonitorServer(host: host)
    let ports: MonitorServer.Ports
    do {
      ports = try await server.start(pagePort: port, appPort: appPort)
    } catch let error as MonitorServer.ListenError {
      let option = error.listener == .page ? "--port" : "--app-port"
      throw RunError(description: "\(error); choose another with \(option)")
    }
    if let file, Self.isSQLite(file) {
      let opened: (system: String, session: TimelineFile<JSONValue, JSONValue>)
      do {
        opened = try await journalSession(file)
      } catch {
        await server.stop()
        if error is RunError { throw error }
        throw RunError(description: "cannot open the journal \(file): \(error)")
      }
      await server.hub.open(opened.session, system: opened.system)
      say(
        "opened the journal \(file), system \(opened.system): \(opened.session.moments.count) moments "
          + "(the start and \(opened.session.moments.count - 1) stored events), \(opened.session.problems.count) problems"
      )
      for problem in opened.session.problems { say("  \(problem)") }
    } else if let file {
      let timeline: TimelineFile<JSONValue, JSONValue>
      do {
        timeline = try TimelineFile(contentsOf: URL(fileURLWithPath: file))
      } catch {
        await server.stop()
        throw RunError(description: "cannot open \(file): \(error)")
      }
      await server.hub.open(timeline, system: URL(fileURLWithPath: file).lastPathComponent)
      say("opened \(file): \(timeline.moments.count) moments, \(timeline.problems.count) problems")
      for problem in timeline.problems { say("  \(problem)") }
    }
    if !["127.0.0.1", "localhost", "::1"].contains(host) {
      say("warning: listening on \(host): anyone who can reach it and knows the secret can change your app's state")
    }
    let info = MonitorInfo(host: host, ports: ports, secret: server.secret)
    if let infoFile {
      StopSignals.removeOnStop(infoFile)
      do {
        try info.write(to: infoFile)
      } catch {
        await server.stop()
        throw RunError(description: "cannot write --info-file \(infoFile): \(error)")
      }
    }
    say("page:         \(info.page)")
    say("applications: MonitorClient.connect(host: \"\(host)\", port: \(ports.app), secret: \"\(server.secret)\", …)")
    while true { try await Task.sleep(for: .seconds(3_600)) }
  }

  /// Writes `line` at once: standard output is a pipe or a file as often as a
  /// terminal, and a buffered line would wait for more, or be lost when the
  /// monitor is stopped.
  func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
  }
}

/// Why the monitor stopped: said on one line, without a backtrace.
struct RunError: Error, CustomStringConvertible {
  var description: String
}
