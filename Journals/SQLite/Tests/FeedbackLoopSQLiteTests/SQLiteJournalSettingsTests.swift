import FeedbackLoopDurable
import Foundation
import GRDB
import Testing

@testable import FeedbackLoopSQLite

@Suite("SQLiteJournal settings and owners")
struct SQLiteJournalSettingsTests {
  @Test("the file is in WAL mode with synchronous NORMAL by default, and FULL when asked")
  func walAndSynchronous() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    for (synchronization, expected) in [(SQLiteJournal.Synchronization.normal, 1), (.full, 2)] {
      let path = directory.path("journal-\(expected).sqlite")
      let journal = try SQLiteJournal(path: path, synchronization: synchronization)
      let (mode, synchronous) = try await journal.readSettings()
      #expect(mode == "wal")
      #expect(synchronous == expected)
      try journal.close()
    }
  }

  @Test("events are keyed by (system id, sequence): the primary key serves the load")
  func primaryKey() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path("journal.sqlite")
    try SQLiteJournal(path: path).close()
    let database = try DatabaseQueue(path: path)
    let plan = try database.read { database in
      try Row.fetchAll(
        database,
        sql: "EXPLAIN QUERY PLAN SELECT sequence, payload FROM journal_events WHERE system_id = ? AND sequence > ?",
        arguments: ["s", 0]
      ).map { $0["detail"] as String }
    }
    #expect(
      plan.contains { $0.contains("USING INDEX sqlite_autoindex_journal_events_1 (system_id=? AND sequence>?)") },
      "\(plan)")
  }

  @Test("a closed journal fails every later call with an error naming the file, and the file reopens whole")
  func closed() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path("journal.sqlite")
    let journal = try SQLiteJournal(path: path)
    _ = try await journal.append([JournalBatch(systemID: "s", expectedSequence: 0, events: [Data("1".utf8)])])
    try journal.close()
    let append = try await firstError {
      _ = try await journal.append([JournalBatch(systemID: "s", expectedSequence: 1, events: [Data("2".utf8)])])
    }
    #expect(append.operation == .append)
    #expect(append.description.contains(path))
    let load = try await firstError { _ = try await journal.load("s") }
    #expect(load.operation == .load)
    let reopened = try SQLiteJournal(path: path)
    #expect(try await reopened.load("s")?.events.map(\.sequence) == [1])
  }

  @Test("G17 two journals on one file (two owners) expecting the same sequence: one is appended, the other refused")
  func twoOwners() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path("journal.sqlite")
    let first = try SQLiteJournal(path: path)
    let second = try SQLiteJournal(path: path)
    var stored: UInt64 = 0
    for round in 0..<30 {
      let expected = stored
      async let a = first.append([
        JournalBatch(systemID: "shared", expectedSequence: expected, events: [Data("a\(round)".utf8)])
      ])
      async let b = second.append([
        JournalBatch(systemID: "shared", expectedSequence: expected, events: [Data("b\(round)".utf8)])
      ])
      let results = try await [a[0], b[0]]
      let appended = results.filter { if case .appended = $0 { true } else { false } }
      #expect(appended == [.appended(through: stored + 1)], "round \(round): \(results)")
      #expect(
        results.contains(
          .refused(SequenceConflict(systemID: "shared", expectedSequence: stored, storedSequence: stored + 1))),
        "round \(round): \(results)")
      stored += 1
    }
    let events = try await second.load("shared")?.events ?? []
    #expect(events.map(\.sequence) == Array(1...30))
  }
}

extension SQLiteJournal {
  func readSettings() async throws -> (journalMode: String, synchronous: Int) {
    try await withWriter { database in
      (
        try String.fetchOne(database, sql: "PRAGMA journal_mode") ?? "",
        try Int.fetchOne(database, sql: "PRAGMA synchronous") ?? -1
      )
    }
  }
}
