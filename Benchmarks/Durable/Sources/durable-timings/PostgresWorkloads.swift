import FeedbackLoopDurable
import FeedbackLoopPostgreSQL
import Foundation
import Logging
import NIOCore
import PostgresNIO

/// D3: a durable system on the PostgreSQL journal, against postgres-nio
/// inserting the same rows in batches of the same size, one statement per
/// batch (`INSERT ... SELECT FROM unnest(...)`, as the journal inserts its
/// events), on the same server. The server is `run`'s, started with
/// `Scripts/postgres start` (fsync on); its URL is in
/// `FEEDBACKLOOP_POSTGRES_URL`.
enum PostgresWorkloads {
  static let logger = Logger(label: "durable-timings")

  static func configuration() -> PostgresClient.Configuration {
    guard let text = ProcessInfo.processInfo.environment["FEEDBACKLOOP_POSTGRES_URL"],
      let url = URLComponents(string: text), let host = url.host, let port = url.port
    else {
      fatalError("D3 needs FEEDBACKLOOP_POSTGRES_URL (postgres://user@host:port/database): run it through ./run")
    }
    let database = url.path.isEmpty ? "postgres" : String(url.path.dropFirst())
    return PostgresClient.Configuration(
      host: host, port: port, username: url.user ?? "feedbackloop", password: url.password, database: database,
      tls: .disable)
  }

  /// Runs `body` with a client running for as long as it does.
  static func withClient<Result: Sendable>(
    _ body: @escaping @Sendable (PostgresClient) async throws -> Result
  ) async throws -> Result {
    let client = PostgresClient(configuration: configuration(), backgroundLogger: logger)
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
      fatalError("the PostgreSQL client stopped before the workload did")
    }
  }

  static func throughput(id: String, systemCount: Int, eventCount: Int, chunk: Int, rounds: Int) async throws {
    let report = try await withClient { client in
      var report = ThroughputReport(id: id, eventCount: eventCount)
      for round in 0..<rounds {
        let tag = "\(id.lowercased())_\(UUID().uuidString.prefix(8).lowercased())_\(round)_"
        let journal = CountingJournal(try await PostgresJournal.open(client: client, tablePrefix: tag))
        let durable = try await DurableDriver.throughput(
          journal: journal, idPrefix: "system-", systemCount: systemCount, eventCount: eventCount, chunk: chunk)
        let appends = journal.appends
        report.durable.append(nanoseconds(durable) / 1e9)
        report.appends.append(appends)
        report.batches.append(journal.batchCount)
        let batchSize = max(1, Int((Double(eventCount) / Double(appends.count)).rounded()))
        let raw = try await rawInserts(
          client: client, table: tag + "raw", systemCount: systemCount, eventCount: eventCount, batchSize: batchSize)
        report.raw.append(nanoseconds(raw) / 1e9)
      }
      return report
    }
    report.print(
      label:
        "\(eventCount) events over \(systemCount) system\(systemCount == 1 ? "" : "s"), \(chunk) sent between commits")
  }

  static func latency(id: String, systemCount: Int, rounds: Int) async throws {
    let (durable, raw) = try await withClient { client in
      let tag = "\(id.lowercased())_latency_\(UUID().uuidString.prefix(8).lowercased())_"
      let journal = try await PostgresJournal.open(client: client, tablePrefix: tag)
      let durable = try await DurableDriver.latencies(
        journal: journal, idPrefix: "latency-", systemCount: systemCount, rounds: rounds)
      let table = tag + "raw"
      try await createRawTable(client: client, table: table)
      var raw: [Double] = []
      let clock = ContinuousClock()
      for round in 0..<rounds * systemCount {
        let start = clock.now
        try await client.withConnection { connection in
          _ = try await connection.query(
            """
            INSERT INTO \(unescaped: table) (system_id, sequence, payload)
            VALUES (\("latency-0"), \(Int64(round + 1)), \(ByteBuffer(bytes: Tallies.payload(at: round))))
            """, logger: logger)
        }
        raw.append(nanoseconds(start.duration(to: clock.now)))
      }
      return (durable, raw)
    }
    printLatencies(
      id, durable: durable, raw: raw,
      label: "\(systemCount) system\(systemCount == 1 ? "" : "s") x \(rounds) calls one after the other")
  }

  static func createRawTable(client: PostgresClient, table: String) async throws {
    try await client.withConnection { connection in
      _ = try await connection.query(
        """
        CREATE TABLE \(unescaped: table) (
          system_id text COLLATE "C" NOT NULL,
          sequence bigint NOT NULL,
          payload bytea NOT NULL,
          PRIMARY KEY (system_id, sequence))
        """, logger: logger)
    }
  }

  static func rawInserts(
    client: PostgresClient, table: String, systemCount: Int, eventCount: Int, batchSize: Int
  ) async throws -> Duration {
    try await createRawTable(client: client, table: table)
    let names = (0..<systemCount).map { "system-\($0)" }
    let clock = ContinuousClock()
    let start = clock.now
    var next = 0
    while next < eventCount {
      let range = next..<min(next + batchSize, eventCount)
      let ids = range.map { names[$0 % systemCount] }
      let sequences = range.map { Int64($0 / systemCount + 1) }
      let payloads = range.map { ByteBuffer(bytes: Tallies.payload(at: $0)) }
      try await client.withConnection { connection in
        _ = try await connection.query(
          """
          INSERT INTO \(unescaped: table) (system_id, sequence, payload)
          SELECT event.system_id, event.sequence, event.payload
          FROM unnest(\(ids)::text[], \(sequences)::bigint[], \(payloads)::bytea[]) AS event(system_id, sequence, payload)
          """, logger: logger)
      }
      next = range.upperBound
    }
    let elapsed = start.duration(to: clock.now)
    let count = try await client.withConnection { connection in
      var count: Int64 = -1
      for try await value in try await connection.query(
        "SELECT count(*) FROM \(unescaped: table)", logger: logger
      ).decode(Int64.self) { count = value }
      return count
    }
    check(count == Int64(eventCount), "raw PostgreSQL stored \(count) rows of \(eventCount)")
    return elapsed
  }
}
