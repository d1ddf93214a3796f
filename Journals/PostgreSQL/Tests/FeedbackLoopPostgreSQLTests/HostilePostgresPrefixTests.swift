import FeedbackLoopPostgreSQL
import Foundation
import Logging
import PostgresNIO
import Testing

/// The table prefix is written into SQL as it is: a prefix that could inject
/// SQL, or that PostgreSQL would cut, stops with a clear message before any
/// statement is sent (no server is needed to see it).
@Suite("PostgreSQL journal: hostile table prefixes")
struct HostilePostgresPrefixTests {
  @Test("a prefix that would inject SQL stops with a message naming the rule, before any statement")
  func injection() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      await openWithNoServer(tablePrefix: "x; DROP TABLE users; --")
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("must be lowercase letters, digits and underscores"), "stderr: \(message)")
  }

  @Test("an empty prefix stops with a message naming the rule")
  func empty() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      await openWithNoServer(tablePrefix: "")
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("must be lowercase letters, digits and underscores"), "stderr: \(message)")
  }

  @Test(
    "a prefix too long for PostgreSQL's 63-byte names (it would name the three tables alike) stops with a clear message"
  )
  func tooLong() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      await openWithNoServer(tablePrefix: String(repeating: "p", count: 63))
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("63-byte"), "stderr: \(message)")
  }
}

/// Opens a journal through a client of a port where no server listens: a
/// prefix that passes its check gets as far as the connection, which fails,
/// and the process then exits normally (so that the exit test fails).
private func openWithNoServer(tablePrefix: String) async {
  var configuration = PostgresClient.Configuration(
    host: "127.0.0.1", port: 1, username: "nobody", password: nil, database: nil, tls: .disable)
  configuration.options.connectTimeout = .seconds(1)
  let client = PostgresClient(configuration: configuration, backgroundLogger: Logger(label: "unused"))
  let running = Task { await client.run() }
  _ = try? await PostgresJournal.open(client: client, tablePrefix: tablePrefix)
  running.cancel()
}
