import FeedbackLoopDurable
import Foundation
import GRDB
import Testing

@testable import FeedbackLoopSQLite

/// The SQLite journal's epochs beyond the conformance suite: a file made
/// before epochs, and a claim that waits for another connection's append.
@Suite("SQLiteJournal epochs", .timeLimit(.minutes(1)))
struct SQLiteJournalEpochTests {
  @Test("a file made before epochs opens: its systems load, are at epoch 0 until claimed, then fence their old writer")
  func fileMadeBeforeEpochs() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path("journal.sqlite")
    // The tables as the version before epochs made them, with one system.
    let old = try DatabaseQueue(path: path)
    try await old.write { database in
      try database.execute(
        sql: """
          CREATE TABLE journal_systems (system_id TEXT NOT NULL PRIMARY KEY, last_sequence INTEGER NOT NULL);
          CREATE TABLE journal_events (
            system_id TEXT NOT NULL, sequence INTEGER NOT NULL, payload BLOB NOT NULL,
            PRIMARY KEY (system_id, sequence));
          CREATE TABLE journal_snapshots (
            system_id TEXT NOT NULL PRIMARY KEY, sequence INTEGER NOT NULL, payload BLOB NOT NULL);
          INSERT INTO journal_systems VALUES ('old', 2);
          INSERT INTO journal_events VALUES ('old', 1, x'31'), ('old', 2, x'32');
          INSERT INTO journal_snapshots VALUES ('old', 1, x'73');
          """)
    }
    try old.close()

    let journal = try SQLiteJournal(path: path)
    let history = JournalHistory(
      snapshot: JournalRecord(sequence: 1, payload: Data("s".utf8)),
      events: [JournalRecord(sequence: 2, payload: Data("2".utf8))])
    #expect(try await journal.load("old") == history)
    // An old writer (epoch 0) goes on until the system is claimed.
    #expect(
      try await journal.append([JournalBatch(systemID: "old", expectedSequence: 2, events: [Data("3".utf8)])])
        == [.appended(through: 3)])
    let claim = try await journal.claim("old")
    #expect(claim.epoch == 1)
    #expect(claim.history?.lastSequence == 3)
    #expect(
      try await journal.append([
        JournalBatch(systemID: "old", expectedSequence: 3, events: [Data("stale".utf8)]),
        JournalBatch(systemID: "old", epoch: 1, expectedSequence: 3, events: [Data("4".utf8)]),
      ])
        == [
          .refused(
            SequenceConflict(
              systemID: "old", expectedSequence: 3, storedSequence: 3, writerEpoch: 0, storedEpoch: 1)),
          .appended(through: 4),
        ])
    try journal.close()
    // Opened again: the epochs' table is there already.
    let reopened = try SQLiteJournal(path: path)
    #expect(try await reopened.claim("old").epoch == 2)
    try reopened.close()
  }

  @Test("G17 a claim from another connection while the owner appends: the claim's history has every acknowledged event")
  func claimFromAnotherConnection() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path("journal.sqlite")
    let owner = try SQLiteJournal(path: path)
    let claimer = try SQLiteJournal(path: path)
    var epoch = try await owner.claim("s").epoch
    var acknowledged: UInt64 = 0
    for round in 0..<10 {
      async let claim = claimer.claim("s")
      var expected = acknowledged
      for attempt in 0... {
        // A journal without the fence appends forever: the claim never stops the owner.
        try #require(attempt < 10_000, "round \(round): the owner was never refused after the claim")
        let result = try await owner.append([
          JournalBatch(systemID: "s", epoch: epoch, expectedSequence: expected, events: [Data("\(round)".utf8)])
        ])
        guard case .appended(let through) = result.first else { break }
        expected = through
      }
      let claimed = try await claim
      #expect(claimed.history?.lastSequence ?? 0 == expected, "round \(round)")
      #expect(claimed.epoch == epoch + 1)
      epoch = claimed.epoch
      acknowledged = expected
    }
    try owner.close()
    try claimer.close()
  }
}
