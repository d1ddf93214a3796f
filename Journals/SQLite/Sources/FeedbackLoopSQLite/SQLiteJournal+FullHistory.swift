import FeedbackLoopDurable
import Foundation
import GRDB

/// The SQLite journal keeps the events before a system's latest snapshot,
/// so the replay check (`JournalReplay.check`) folds a system's whole
/// history and compares it with the stored snapshot.
///
/// ```swift
/// let journal = try SQLiteJournal(path: "accounts.sqlite")
/// let first = try await journal.events(of: "account-7", after: 0, limit: 1_000)
/// ```
extension SQLiteJournal: FullHistoryJournal {
  public func events(of systemID: String, after sequence: UInt64, limit: Int) async throws -> [JournalRecord] {
    guard limit > 0 else { return [] }
    do {
      return try await database.read { database in
        // Through the primary key on (system id, sequence): a page costs
        // its own rows, wherever it starts.
        try Row.fetchAll(
          database.cachedStatement(
            sql: """
              SELECT sequence, payload FROM journal_events WHERE system_id = ? AND sequence > ?
              ORDER BY sequence LIMIT ?
              """),
          arguments: [systemID, Int64(clamping: sequence), limit]
        ).map { JournalRecord(sequence: UInt64($0[0] as Int64), payload: $0[1]) }
      }
    } catch {
      throw SQLiteJournalError(path: path, operation: .load, error: error)
    }
  }

  public func latestSnapshot(of systemID: String) async throws -> JournalRecord? {
    do {
      return try await database.read { database in
        try Row.fetchOne(
          database.cachedStatement(sql: "SELECT sequence, payload FROM journal_snapshots WHERE system_id = ?"),
          arguments: [systemID]
        ).map { JournalRecord(sequence: UInt64($0[0] as Int64), payload: $0[1]) }
      }
    } catch {
      throw SQLiteJournalError(path: path, operation: .load, error: error)
    }
  }
}
