import FeedbackLoopPostgreSQL
import Foundation
import Logging
import PostgresNIO
import Synchronization

/// PostgreSQL servers of the test process's own, from `Scripts/postgres`:
/// each on 127.0.0.1 with a data folder of its own, stopped when the process
/// exits. Most tests share one server, each in tables of its own (a prefix
/// per test); a test that stops its server starts its own.
struct TestServer: Sendable {
  let directory: String
  let port: Int

  static let shared: TestServer = {
    do { return try start() } catch { fatalError("\(error)") }
  }()

  static func start() throws -> TestServer {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("feedbackloop-postgres-\(UUID().uuidString)").path
    let url = try script("start", directory)
    guard let portText = url.split(separator: ":").last?.split(separator: "/").first, let port = Int(portText)
    else { throw ServerError(message: "Scripts/postgres printed no URL: \(url)") }
    let server = TestServer(directory: directory, port: port)
    let first = startedServers.withLock { servers in
      servers.append(directory)
      return servers.count == 1
    }
    if first {
      atexit {
        for directory in startedServers.withLock({ $0 }) {
          _ = try? TestServer.script("stop", directory)
          try? FileManager.default.removeItem(atPath: directory)
        }
      }
    }
    return server
  }

  func stop() throws { _ = try Self.script("stop", directory) }
  func resume() throws { _ = try Self.script("resume", directory) }

  var configuration: PostgresClient.Configuration {
    var configuration = PostgresClient.Configuration(
      host: "127.0.0.1", port: port, username: "feedbackloop", password: nil, database: "postgres",
      tls: .disable)
    configuration.options.connectTimeout = .seconds(2)
    return configuration
  }

  /// Runs `body` with a journal in tables of its own on this server, and a
  /// client running for as long as `body` does.
  func withJournal<Result: Sendable>(
    tablePrefix: String = TestServer.newTablePrefix(),
    operationTimeout: Duration? = .seconds(10),
    _ body: @escaping @Sendable (PostgresJournal) async throws -> Result
  ) async throws -> Result {
    try await withClient { client in
      try await body(
        try await PostgresJournal.open(
          client: client, tablePrefix: tablePrefix, operationTimeout: operationTimeout))
    }
  }

  /// Runs `body` with a client of this server, running for as long as
  /// `body` does.
  func withClient<Result: Sendable>(
    _ body: @escaping @Sendable (PostgresClient) async throws -> Result
  ) async throws -> Result {
    let client = PostgresClient(configuration: configuration, backgroundLogger: Logger(label: "test"))
    return try await withThrowingTaskGroup(of: Result?.self) { group in
      group.addTask {
        await client.run()
        return nil
      }
      group.addTask { try await body(client) }
      defer { group.cancelAll() }
      while let result = try await group.next() {
        if let result { return result }
      }
      throw ServerError(message: "the client stopped before the test did")
    }
  }

  /// Table names of their own, so that tests share one server.
  static func newTablePrefix() -> String {
    "t\(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""))_"
  }

  private static let scriptPath = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Scripts/postgres").path

  /// Runs `Scripts/postgres` and returns what it printed. With
  /// `posix_spawn` and `waitpid` rather than Foundation's `Process`, whose
  /// `waitUntilExit` was seen never to return here once the script had
  /// started a server (the server outlives the script).
  @discardableResult
  static func script(_ arguments: String...) throws -> String {
    let output = FileManager.default.temporaryDirectory
      .appendingPathComponent("feedbackloop-postgres-output-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: output) }
    let command = ([scriptPath] + arguments).map(quoted).joined(separator: " ") + " > " + quoted(output)
    let words: [String] = ["/bin/bash", "-c", command]
    let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid = pid_t()
    guard posix_spawn(&pid, "/bin/bash", nil, nil, argv, environ) == 0 else {
      throw ServerError(message: "could not start /bin/bash for Scripts/postgres")
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    let exitedNormally = status & 0x7f == 0
    let exitCode = (status >> 8) & 0xff
    guard exitedNormally, exitCode == 0 else {
      throw ServerError(
        message: "Scripts/postgres \(arguments.joined(separator: " ")) failed (status \(status)); "
          + "is PostgreSQL installed? (Scripts/postgres install)")
    }
    let printed = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    return printed.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  private static func quoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}

private let startedServers = Mutex<[String]>([])

struct ServerError: Error, CustomStringConvertible {
  let message: String
  var description: String { message }
}
