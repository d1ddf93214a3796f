// The durable crash test's host on a PostgreSQL journal (see CrashHost.swift,
// shared with the SQLite package):
//
//   durable-crash-host PORT TABLE-PREFIX OPTIONS...
//
// connects to the test's server on 127.0.0.1:PORT as the user `feedbackloop`.
import FeedbackLoopPostgreSQL
import Logging
import PostgresNIO

let arguments = CommandLine.arguments
guard arguments.count >= 3, let port = Int(arguments[1]) else {
  fail("usage: durable-crash-host PORT TABLE-PREFIX " + CrashHostOptions.usage)
}
var configuration = PostgresClient.Configuration(
  host: "127.0.0.1", port: port, username: "feedbackloop", password: nil, database: "postgres", tls: .disable)
configuration.options.connectTimeout = .seconds(2)
let client = PostgresClient(configuration: configuration, backgroundLogger: Logger(label: "durable-crash-host"))
do {
  try await withThrowingDiscardingTaskGroup { group in
    group.addTask { await client.run() }
    let journal = try await PostgresJournal.open(client: client, tablePrefix: arguments[2])
    try await runCrashHost(journal: journal, options: .parse(arguments.dropFirst(3)))
    group.cancelAll()
  }
} catch {
  fail("\(error)")
}
