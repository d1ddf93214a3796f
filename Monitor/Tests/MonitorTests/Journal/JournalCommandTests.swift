import Foundation
import GRDB
import Testing

/// `feedbackloop-monitor journal.sqlite [--system ID]`, as a user runs it.
// Serialized: a process started while another starts may inherit its pipes, and hold them open.
@Suite(
  "The monitor command opening a SQLite journal", .serialized,
  .enabled(if: MonitorProcess.isAvailable, "needs the executable: swift build --build-tests"))
struct JournalCommandTests {
  @Test("given a journal and a system, the monitor opens that system's stored events as a session")
  func opensTheSystemGiven() async throws {
    let (path, folder) = try await Basket.writeJournal()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let monitor = try MonitorProcess(["--port", "0", "--app-port", "0", path, "--system", "basket-1"])
    let opened = await monitor.line { $0.hasPrefix("opened the journal") }
    #expect(
      opened
        == "opened the journal \(path), system basket-1: 8 moments (the start and 7 stored events), 0 problems",
      "\(monitor.standardOutput) \(monitor.standardError)")
    #expect(await monitor.line { $0.hasPrefix("page:") } != nil)
    monitor.terminate()
    _ = await monitor.exitStatus()
  }

  @Test("given a journal of several systems and no --system, the monitor lists their ids and stops")
  func listsTheIDs() async throws {
    let (path, folder) = try await Basket.writeJournal()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let listed = try MonitorProcess(["--port", "0", "--app-port", "0", path], timeLimit: .seconds(30))
    #expect(await listed.exitStatus() == 1)
    #expect(
      listed.standardError.contains(
        "\(path) holds 2 systems: open one with --system ID; they are: basket-1, basket-2"),
      "\(listed.standardError)")

    let unknown = try MonitorProcess(["--port", "0", "--app-port", "0", path, "--system", "basket-9"])
    #expect(await unknown.exitStatus() == 1)
    #expect(
      unknown.standardError.contains("\(path) holds no system \"basket-9\"; it holds: basket-1, basket-2"),
      "\(unknown.standardError)")
  }

  @Test("a SQLite database that is not a journal is refused, status 1, and left as it was")
  func otherDatabaseIsLeftAlone() async throws {
    // Another application's database: a SQLite file without the journal's tables.
    let other = FileManager.default.temporaryDirectory.appendingPathComponent("monitor-\(UUID().uuidString).sqlite")
      .path
    defer { try? FileManager.default.removeItem(atPath: other) }
    let database = try DatabaseQueue(path: other)
    try await database.write { try $0.execute(sql: "CREATE TABLE notes (text TEXT)") }
    try database.close()
    let before = try Data(contentsOf: URL(fileURLWithPath: other))

    let monitor = try MonitorProcess(["--port", "0", "--app-port", "0", other])
    #expect(await monitor.exitStatus() == 1)
    #expect(
      monitor.standardError.contains("\(other) is a SQLite database, but not a durable system's journal"),
      "\(monitor.standardError)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: other)) == before)
    #expect(!FileManager.default.fileExists(atPath: other + "-wal"))
  }

  @Test("--system with a file that is not a SQLite journal is a usage error, status 64")
  func systemNeedsAJournal() async throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("monitor-\(UUID().uuidString).jsonl")
    try Data("{}\n".utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let monitor = try MonitorProcess(["--port", "0", "--app-port", "0", file.path, "--system", "basket-1"])
    #expect(await monitor.exitStatus() == 64)
    #expect(monitor.standardError.contains("--system goes with a SQLite journal to open."), "\(monitor.standardError)")
  }
}
