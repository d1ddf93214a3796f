import FeedbackLoopDurable
import FeedbackLoopDurableTesting
import FeedbackLoopPostgreSQL
import Foundation
import Testing

@Suite("The replay check over a PostgreSQL journal")
struct PostgresJournalReplayTests {
  enum Event: Codable, Sendable, Equatable { case add(Int) }

  private struct Envelope<Value: Encodable>: Encodable {
    var version = 1
    var value: Value
  }

  /// The reducer the journals below were written with.
  private static func add(_ total: inout Int, _ event: Event) {
    if case .add(let amount) = event { total += amount }
  }

  /// Today's changed reducer: an amount counts for at most 1,000.
  private static func addCapped(_ total: inout Int, _ event: Event) {
    if case .add(let amount) = event { total += min(amount, 1_000) }
  }

  /// Appends `amounts` to a new system in batches of 100, with a snapshot of
  /// the running total (by `add`) after the `snapshotAfter`th event.
  private static func store(
    _ amounts: [Int], as systemID: String, snapshotAfter: Int?, in journal: PostgresJournal
  ) async throws {
    let codec = JSONDurableCodec()
    var total = 0
    var stored = 0
    while stored < amounts.count {
      var end = min(stored + 100, amounts.count)
      if let snapshotAfter, stored < snapshotAfter, snapshotAfter < end { end = snapshotAfter }
      let batch = Array(amounts[stored..<end])
      batch.forEach { add(&total, .add($0)) }
      let results = try await journal.append([
        JournalBatch(
          systemID: systemID, expectedSequence: UInt64(stored),
          events: try batch.map { try codec.encode(Envelope(value: Event.add($0))) },
          snapshot: end == snapshotAfter ? try codec.encode(Envelope(value: total)) : nil)
      ])
      #expect(results == [.appended(through: UInt64(end))])
      stored = end
    }
  }

  @Test("the PostgreSQL journal reads the events before its snapshot in pages, and the snapshots are compared")
  func comparesTheSnapshots() async throws {
    try await TestServer.shared.withJournal { journal in
      for id in ["tally-a", "tally-b", "tally-c"] {
        try await Self.store(Array(1...300), as: id, snapshotAfter: 200, in: journal)
      }
      // A snapshot of the first state alone, at sequence 0: compared with the initial state.
      let zero = try JSONDurableCodec().encode(Envelope(value: 0))
      #expect(
        try await journal.append([JournalBatch(systemID: "fresh", expectedSequence: 0, events: [], snapshot: zero)])
          == [.appended(through: 0)])

      #expect(try await journal.events(of: "tally-a", after: 0, limit: 3).map(\.sequence) == [1, 2, 3])
      #expect(try await journal.events(of: "tally-a", after: 198, limit: 4).map(\.sequence) == [199, 200, 201, 202])
      #expect(try await journal.events(of: "tally-a", after: 299, limit: 10).map(\.sequence) == [300])
      #expect(try await journal.events(of: "tally-a", after: 300, limit: 10).isEmpty)
      #expect(try await journal.events(of: "tally-a", after: .max, limit: 10).isEmpty)
      #expect(try await journal.events(of: "tally-a", after: 0, limit: 0).isEmpty)
      #expect(try await journal.events(of: "unknown", after: 0, limit: 10).isEmpty)
      #expect(try await journal.latestSnapshot(of: "tally-a")?.sequence == 200)
      #expect(try await journal.latestSnapshot(of: "fresh")?.sequence == 0)
      #expect(try await journal.latestSnapshot(of: "unknown") == nil)

      // Pages of 7: 43 pages of events per system, and the ids 7 at a time.
      let report = try await JournalReplay.check(journal, initial: 0, reduce: Self.add, pageSize: 7)
      #expect(report.isClean, "\(report)")
      #expect(report.systemsChecked == 4)
      #expect(report.eventsReplayed == 900)
      #expect(report.snapshotsCompared == 4)
    }
  }

  @Test("a changed reducer is reported at the snapshot it first diverges from, with both states")
  func changedReducer() async throws {
    try await TestServer.shared.withJournal { journal in
      var large = Array(repeating: 10, count: 100)
      large[59] = 5_000
      // Diverges at its snapshot (sequence 80): event 60 counts 1,000 today.
      try await Self.store(large, as: "large-before-snapshot", snapshotAfter: 80, in: journal)
      // The same amounts, but only after its snapshot (at 50): nothing to compare them with.
      try await Self.store(large, as: "large-after-snapshot", snapshotAfter: 50, in: journal)
      // Nothing above 1,000: today's reducer makes the same snapshot.
      try await Self.store(Array(repeating: 10, count: 100), as: "small", snapshotAfter: 80, in: journal)

      let report = try await JournalReplay.check(journal, initial: 0, reduce: Self.addCapped, pageSize: 30)
      #expect(report.systemsChecked == 3)
      #expect(report.snapshotsCompared == 3)
      let divergence = try #require(report.divergences.first, "\(report)")
      #expect(report.divergences.count == 1, "\(report)")
      #expect(divergence.systemID == "large-before-snapshot")
      #expect(divergence.sequence == 80)
      guard case .snapshotDiffers(let stored, let replayed, _) = divergence.reason else {
        Issue.record("expected a differing snapshot, got \(divergence)")
        return
      }
      #expect(stored == 79 * 10 + 5_000)
      #expect(replayed == 79 * 10 + 1_000)
      // The journal as it was written replays cleanly.
      #expect(try await JournalReplay.check(journal, initial: 0, reduce: Self.add).isClean)
    }
  }

  @Test("an event before the snapshot that no longer decodes is reported at its sequence")
  func undecodableEventBeforeTheSnapshot() async throws {
    try await TestServer.shared.withJournal { journal in
      let codec = JSONDurableCodec()
      var events = try (1...10).map { try codec.encode(Envelope(value: Event.add($0))) }
      events[4] = Data(#"{"version":1,"value":{"remove":{"_0":5}}}"#.utf8)
      // An id that is not plain: bound as a parameter, never written into the SQL.
      let id = "o'brien \"ü\"; DROP TABLE x; --"
      #expect(
        try await journal.append([
          JournalBatch(
            systemID: id, expectedSequence: 0, events: events, snapshot: try codec.encode(Envelope(value: 55)))
        ]) == [.appended(through: 10)])
      #expect(try await journal.events(of: id, after: 0, limit: 100).count == 10)
      let report = try await JournalReplay.check(journal, initial: 0, reduce: Self.add, pageSize: 3)
      #expect(report.divergences.map(\.sequence) == [5], "\(report)")
      #expect(report.divergences.map(\.systemID) == [id])
      guard case .notRestorable = report.divergences.first?.reason else {
        Issue.record("expected an event that does not restore, got \(report)")
        return
      }
      #expect(report.eventsReplayed == 4)
    }
  }
}
