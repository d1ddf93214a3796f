import FeedbackLoopDurable
import FeedbackLoopSQLite
import Foundation
import GRDB

/// D1 and D2: durable systems on the SQLite journal (WAL,
/// `synchronous = NORMAL`), against GRDB inserting the same rows in
/// transactions of the same size, on a file with the same settings.
enum SQLiteWorkloads {
  static func throughput(id: String, systemCount: Int, eventCount: Int, chunk: Int, rounds: Int) async throws {
    var report = ThroughputReport(id: id, eventCount: eventCount)
    for _ in 0..<rounds {
      let scratch = ScratchDirectory(id)
      defer { scratch.remove() }
      let journal = CountingJournal(try SQLiteJournal(path: scratch.path("journal.sqlite")))
      let durable = try await DurableDriver.throughput(
        journal: journal, idPrefix: "system-", systemCount: systemCount, eventCount: eventCount, chunk: chunk)
      let appends = journal.appends
      report.durable.append(nanoseconds(durable) / 1e9)
      report.appends.append(appends)
      report.batches.append(journal.batchCount)
      // The same rows, in transactions of the writer's mean size.
      let batchSize = max(1, Int((Double(eventCount) / Double(appends.count)).rounded()))
      let raw = try await rawInserts(
        path: scratch.path("raw.sqlite"), systemCount: systemCount, eventCount: eventCount, batchSize: batchSize)
      report.raw.append(nanoseconds(raw) / 1e9)
    }
    report.print(
      label:
        "\(eventCount) events over \(systemCount) system\(systemCount == 1 ? "" : "s"), \(chunk) sent between commits")
  }

  static func latency(id: String, systemCount: Int, rounds: Int) async throws {
    let scratch = ScratchDirectory(id)
    defer { scratch.remove() }
    let journal = try SQLiteJournal(path: scratch.path("journal.sqlite"))
    let durable = try await DurableDriver.latencies(
      journal: journal, idPrefix: "latency-", systemCount: systemCount, rounds: rounds)
    let raw = try await rawLatencies(
      path: scratch.path("raw.sqlite"), systemCount: systemCount, rounds: rounds)
    printLatencies(
      id, durable: durable, raw: raw,
      label: "\(systemCount) system\(systemCount == 1 ? "" : "s") x \(rounds) calls one after the other")
  }

  /// A GRDB pool with the journal's settings, and a table with the shape of
  /// its events.
  static func rawPool(path: String) async throws -> DatabasePool {
    let pool = try DatabasePool(path: path)
    try await pool.writeWithoutTransaction { database in
      try database.execute(sql: "PRAGMA synchronous = NORMAL")
      try database.execute(
        sql: """
          CREATE TABLE raw_events (
            system_id TEXT NOT NULL,
            sequence INTEGER NOT NULL,
            payload BLOB NOT NULL,
            PRIMARY KEY (system_id, sequence))
          """)
    }
    return pool
  }

  static func rawInserts(path: String, systemCount: Int, eventCount: Int, batchSize: Int) async throws -> Duration {
    let pool = try await rawPool(path: path)
    let ids = (0..<systemCount).map { "system-\($0)" }
    let clock = ContinuousClock()
    let start = clock.now
    var next = 0
    while next < eventCount {
      let range = next..<min(next + batchSize, eventCount)
      try await pool.write { database in
        let insert = try database.cachedStatement(
          sql: "INSERT INTO raw_events (system_id, sequence, payload) VALUES (?, ?, ?)")
        for index in range {
          try insert.execute(
            arguments: [ids[index % systemCount], Int64(index / systemCount + 1), Tallies.payload(at: index)])
        }
      }
      next = range.upperBound
    }
    let elapsed = start.duration(to: clock.now)
    let count = try await pool.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM raw_events") }
    check(count == eventCount, "raw SQLite stored \(String(describing: count)) rows of \(eventCount)")
    try pool.close()
    return elapsed
  }

  /// One-row transactions, one after the other per system id, the ids' callers
  /// at the same time.
  static func rawLatencies(path: String, systemCount: Int, rounds: Int) async throws -> [Double] {
    let pool = try await rawPool(path: path)
    let all = try await withThrowingTaskGroup(of: [Double].self) { group in
      for system in 0..<systemCount {
        group.addTask {
          let clock = ContinuousClock()
          var times: [Double] = []
          for round in 0..<rounds {
            let start = clock.now
            try await pool.write { database in
              try database.cachedStatement(
                sql: "INSERT INTO raw_events (system_id, sequence, payload) VALUES (?, ?, ?)"
              ).execute(arguments: ["latency-\(system)", Int64(round + 1), Tallies.payload(at: round)])
            }
            times.append(nanoseconds(start.duration(to: clock.now)))
          }
          return times
        }
      }
      var all: [Double] = []
      for try await times in group { all += times }
      return all
    }
    try pool.close()
    return all
  }
}
