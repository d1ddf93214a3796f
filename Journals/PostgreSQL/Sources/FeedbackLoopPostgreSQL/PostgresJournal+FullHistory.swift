import FeedbackLoopDurable
import Foundation
import PostgresNIO

/// The PostgreSQL journal keeps every event of a system, those before its
/// latest snapshot included (it deletes events only when the system is
/// deleted), so the replay check (`JournalReplay.check`) folds a system's
/// whole history and compares the fold with the stored snapshot. Only the
/// latest snapshot of a system is stored (a new one replaces it), so that
/// is the snapshot the check compares.
///
/// ```swift
/// let journal = try await PostgresJournal.open(client: client)
/// let first = try await journal.events(of: "account-7", after: 0, limit: 1_000)
/// ```
extension PostgresJournal: FullHistoryJournal {
  public func events(of systemID: String, after sequence: UInt64, limit: Int) async throws -> [JournalRecord] {
    guard limit > 0 else { return [] }
    // Through the primary key on (system id, sequence): a page costs its
    // own rows, wherever it starts.
    let query: PostgresQuery = """
      SELECT sequence, payload FROM \(unescaped: tables.events)
      WHERE system_id = \(systemID) AND sequence > \(Int64(clamping: sequence))
      ORDER BY sequence LIMIT \(limit)
      """
    let logger = self.logger
    let client = self.client
    return try await run("read the events of \"\(systemID)\"") {
      var records: [JournalRecord] = []
      for try await (sequence, payload) in try await client.query(query, logger: logger).decode(
        (Int64, ByteBuffer).self)
      {
        records.append(JournalRecord(sequence: UInt64(sequence), payload: Data(payload.readableBytesView)))
      }
      return records
    }
  }

  public func latestSnapshot(of systemID: String) async throws -> JournalRecord? {
    let query: PostgresQuery =
      "SELECT sequence, payload FROM \(unescaped: tables.snapshots) WHERE system_id = \(systemID)"
    let logger = self.logger
    let client = self.client
    return try await run("read the snapshot of \"\(systemID)\"") {
      var snapshot: JournalRecord?
      for try await (sequence, payload) in try await client.query(query, logger: logger).decode(
        (Int64, ByteBuffer).self)
      {
        snapshot = JournalRecord(sequence: UInt64(sequence), payload: Data(payload.readableBytesView))
      }
      return snapshot
    }
  }
}
