import FeedbackLoop
import FeedbackLoopDurable
import Foundation
import Logging
import Testing

@testable import FeedbackLoopSQLite

/// The SQLite journal under hostile input: a batch of 100,000 events in one
/// call, ids that SQL and UTF-8 find awkward, one file opened twice in one
/// process by two durable systems of one id.
@Suite("SQLiteJournal hostile input", .timeLimit(.minutes(2)))
struct HostileSQLiteJournalTests {
  @Test("a batch of 100,000 events in one call is stored whole, in order, and loads back")
  func hugeBatch() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let journal = try SQLiteJournal(path: directory.path("journal.sqlite"))
    let events = (0..<100_000).map { Data("event \($0)".utf8) }
    let results = try await journal.append([JournalBatch(systemID: "big", expectedSequence: 0, events: events)])
    #expect(results == [.appended(through: 100_000)])
    let history = try #require(try await journal.load("big"))
    #expect(history.events.count == 100_000)
    #expect(history.events.first?.sequence == 1)
    #expect(history.events.last?.sequence == 100_000)
    #expect(history.events.map(\.payload) == events)
    try journal.close()
  }

  @Test(
    "ids with quotes, SQL, unicode, an empty one: each is its own system, listed in byte order",
    arguments: [
      "", "'", "\"", "a'; DROP TABLE journal_events; --", "système-é", "e\u{301}", "🧾 receipt",
      String(repeating: "x", count: 10_000),
    ])
  func awkwardIDs(id: String) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let journal = try SQLiteJournal(path: directory.path("journal.sqlite"))
    let results = try await journal.append([
      JournalBatch(systemID: id, expectedSequence: 0, events: [Data("1".utf8)]),
      JournalBatch(systemID: "plain", expectedSequence: 0, events: [Data("2".utf8), Data("3".utf8)]),
    ])
    #expect(results == [.appended(through: 1), .appended(through: 2)])
    let history = try #require(try await journal.load(id))
    #expect(history.events.map(\.payload) == [Data("1".utf8)])
    #expect(try await journal.load("plain")?.events.count == 2)
    let ids = try await journal.systemIDs(after: nil, limit: 10)
    #expect(ids == [id, "plain"].sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
    // A stale second owner of the awkward id is refused like any other.
    let refused = try await journal.append([
      JournalBatch(systemID: id, expectedSequence: 0, events: [Data("x".utf8)])
    ])
    #expect(refused == [.refused(SequenceConflict(systemID: id, expectedSequence: 0, storedSequence: 1))])
    try await journal.delete(id)
    #expect(try await journal.load(id) == nil)
    #expect(try await journal.load("plain")?.events.count == 2)
    try journal.close()
  }

  @Test("an id with a NUL character is refused with an error naming it, never taken for the id before the NUL")
  func idWithNUL() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let journal = try SQLiteJournal(path: directory.path("journal.sqlite"))
    _ = try await journal.append([JournalBatch(systemID: "a", expectedSequence: 0, events: [Data("a's".utf8)])])
    for operation in ["append", "load", "delete"] {
      let error = try await firstError {
        switch operation {
        case "append":
          _ = try await journal.append([
            JournalBatch(systemID: "a\u{0}b", expectedSequence: 1, events: [Data("b's".utf8)])
          ])
        case "load": _ = try await journal.load("a\u{0}b")
        default: try await journal.delete("a\u{0}b")
        }
      }
      #expect(error.description.contains("NUL"), "\(operation): \(error)")
    }
    #expect(try await journal.load("a")?.events.map(\.payload) == [Data("a's".utf8)])
    #expect(try await journal.systemIDs(after: nil, limit: 10) == ["a"])
    try journal.close()
  }

  @Test("G17 one file opened twice in one process: two durable systems of one id, the earlier restore is refused")
  func oneFileOpenedTwice() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path("journal.sqlite")
    let firstJournal = try SQLiteJournal(path: path)
    let secondJournal = try SQLiteJournal(path: path)
    // The refusal is logged as an error: the test expects it, and keeps it quiet.
    let quiet = SystemEnvironment(logger: Logger(label: "refused") { _ in SwiftLogNoOpLogHandler() })
    let first = try await DurableSystem.restore(
      id: "counter", writer: JournalWriter(journal: firstJournal), initial: 0, reduce: { count, step in count += step },
      environment: quiet)
    let second = try await DurableSystem.restore(
      id: "counter", writer: JournalWriter(journal: secondJournal), initial: 0,
      reduce: { count, step in count += step })
    // The earlier owner appends first, expecting the stored sequence: fenced.
    let error = await #expect(throws: DurableSystemError.self) { try await first.sendDurably(100) }
    guard case .refusedByJournal(let conflict) = error else {
      Issue.record("expected refusedByJournal, got \(String(describing: error))")
      return
    }
    #expect(
      conflict
        == SequenceConflict(
          systemID: "counter", expectedSequence: 0, storedSequence: 0, writerEpoch: 1, storedEpoch: 2))
    try await second.sendDurably(1)
    try await second.sendDurably(2)
    first.stop()
    second.stop()
    let restored = try await DurableSystem.restore(
      id: "counter", writer: JournalWriter(journal: secondJournal), initial: 0, reduce: { count, step in count += step }
    )
    #expect(restored.state == 3)
    #expect(restored.committedSequence == 2)
    restored.stop()
    try firstJournal.close()
    try secondJournal.close()
  }
}
