import FeedbackLoopDurable
import Foundation
import GRDB

/// A ``FeedbackLoopDurable/Journal`` in one SQLite file: the embedded
/// default of durable systems, on a server or in an app.
///
/// ```swift
/// let journal = try SQLiteJournal(path: "/var/lib/shop/journal.sqlite")
/// let claim = try await journal.claim("cart-42")
/// let results = try await journal.append([
///   JournalBatch(systemID: "cart-42", epoch: claim.epoch, expectedSequence: 0, events: [added, paid])
/// ])
/// // results == [.appended(through: 2)]
/// ```
///
/// The file is in WAL mode, and each ``append(_:)`` is one transaction: its
/// batches' epoch and sequence checks and writes are all in it, under the
/// file's write lock, so a batch whose writer is stale (another owner
/// claimed the system or wrote first, even from another process, even
/// while this one was paused) is refused, and a call that fails stores
/// nothing. Each system's epoch (``claim(_:)``) is in a table of its own,
/// `journal_epochs`, which outlives ``delete(_:)``; opening a file that an
/// earlier version made adds the table, so such a file still opens, its
/// systems at epoch 0 until they are claimed.
///
/// ### Durability
///
/// By default SQLite syncs the write-ahead log at checkpoints only
/// (``Synchronization/normal``): an append that returned survives a crash of
/// the process at any moment, but a power loss or a crash of the operating
/// system may lose the last appends that returned (never a part of one, and
/// never an earlier one: the file stays consistent). Choose
/// ``Synchronization/full`` to sync at every commit, when a power loss must
/// lose nothing acknowledged, at the price of one disk flush per append.
///
/// ### Faults
///
/// Every failure is a ``SQLiteJournalError`` that names the file, what the
/// journal was doing, and the kind of fault (``SQLiteJournalError/Reason``):
/// a corrupted file, a full disk, a read-only file. After a failed
/// ``append(_:)`` nothing of that call is stored, and the journal goes on
/// working once the cause is gone (space is freed, say).
///
/// Events before the latest snapshot stay in the file, and a replay check
/// reads them a page at a time (``events(of:after:limit:)``, as a
/// `FullHistoryJournal`); ``load(_:)`` reads the snapshot and the events after it only,
/// through the primary key on (system id, sequence), so a restore does not
/// grow with the history.
public final class SQLiteJournal: Journal {
  /// How often SQLite flushes the file to the disk: what a power loss may
  /// lose. Closed for good: SQLite's levels for a WAL database that keep
  /// the file consistent.
  public enum Synchronization: Sendable {
    /// `PRAGMA synchronous = NORMAL`: a crash of the process loses nothing
    /// acknowledged; a power loss may lose the last acknowledged appends.
    case normal
    /// `PRAGMA synchronous = FULL`: the write-ahead log is flushed at every
    /// commit; a power loss loses nothing acknowledged.
    case full
  }

  /// The database file's path.
  public let path: String
  /// Internal, not private: the full-history reads (SQLiteJournal+FullHistory.swift) use it.
  let database: DatabasePool

  /// Opens the journal at `path`, creating the file and its tables if they
  /// do not exist.
  ///
  /// - Parameters:
  ///   - path: the database file (SQLite adds `-wal` and `-shm` files beside
  ///     it).
  ///   - synchronization: what a power loss may lose (``Synchronization/normal``
  ///     by default).
  ///   - maximumPageCount: a bound on the file's size in pages
  ///     (`PRAGMA max_page_count`), or `nil` for SQLite's own; an append that
  ///     would exceed it fails with ``SQLiteJournalError/Reason/full``.
  /// - Throws: a ``SQLiteJournalError`` when the file cannot be opened,
  ///   is not a database, is corrupted or cannot be written.
  public init(path: String, synchronization: Synchronization = .normal, maximumPageCount: Int? = nil) throws {
    self.path = path
    var configuration = Configuration()
    // Another process writing the same file (a second owner) waits rather
    // than failing at once; its append is then refused by the epoch or the
    // sequence check.
    configuration.busyMode = .timeout(10)
    configuration.prepareDatabase { database in
      if let maximumPageCount {
        try database.execute(sql: "PRAGMA max_page_count = \(maximumPageCount)")
      }
    }
    do {
      database = try DatabasePool(path: path, configuration: configuration)
      // Set on the pool's one writing connection, after the pool opened it:
      // GRDB sets NORMAL when it turns WAL on, after `prepareDatabase`.
      try database.writeWithoutTransaction { database in
        switch synchronization {
        case .normal: try database.execute(sql: "PRAGMA synchronous = NORMAL")
        case .full: try database.execute(sql: "PRAGMA synchronous = FULL")
        }
        try database.inTransaction(.immediate) {
          try Self.createTables(database)
          return .commit
        }
      }
    } catch {
      throw SQLiteJournalError(path: path, operation: .open, error: error)
    }
  }

  private static func createTables(_ database: Database) throws {
    // One row per system: its last sequence, which the conditional append
    // reads, and the key that systemIDs pages over.
    try database.execute(
      sql: """
        CREATE TABLE IF NOT EXISTS journal_systems (
          system_id TEXT NOT NULL PRIMARY KEY,
          last_sequence INTEGER NOT NULL
        );
        CREATE TABLE IF NOT EXISTS journal_events (
          system_id TEXT NOT NULL,
          sequence INTEGER NOT NULL,
          payload BLOB NOT NULL,
          PRIMARY KEY (system_id, sequence)
        );
        CREATE TABLE IF NOT EXISTS journal_snapshots (
          system_id TEXT NOT NULL PRIMARY KEY,
          sequence INTEGER NOT NULL,
          payload BLOB NOT NULL
        );
        CREATE TABLE IF NOT EXISTS journal_epochs (
          system_id TEXT NOT NULL PRIMARY KEY,
          epoch INTEGER NOT NULL
        );
        """)
    // A table of its own rather than a column of journal_systems: an id
    // claimed with nothing stored, or deleted, keeps its epoch without being
    // listed. A file made before epochs gets it above, at its next open.
  }

  public func append(_ batches: [JournalBatch]) async throws -> [JournalAppendResult] {
    for batch in batches { try refuseNUL(in: batch.systemID, operation: .append) }
    do {
      // One IMMEDIATE transaction: the write lock is taken before the
      // sequences are read, so no other connection or process can write
      // between a check and its insert. An error rolls the whole call back.
      return try await database.writeWithoutTransaction { database in
        var results: [JournalAppendResult] = []
        try database.inTransaction(.immediate) {
          results = try batches.map { try Self.append($0, in: database) }
          return .commit
        }
        return results
      }
    } catch {
      throw SQLiteJournalError(path: path, operation: .append, error: error)
    }
  }

  private static func append(_ batch: JournalBatch, in database: Database) throws -> JournalAppendResult {
    // The epoch and the sequence in one statement, read under the write lock
    // the transaction holds: no claim can come between this check and the
    // inserts.
    let head = try Row.fetchOne(
      database.cachedStatement(
        sql: """
          SELECT (SELECT last_sequence FROM journal_systems WHERE system_id = ?),
                 (SELECT epoch FROM journal_epochs WHERE system_id = ?)
          """),
      arguments: [batch.systemID, batch.systemID])
    let stored = (head?[0] as Int64?).map(UInt64.init) ?? 0
    let epoch = (head?[1] as Int64?).map(UInt64.init) ?? 0
    guard stored == batch.expectedSequence, epoch == batch.epoch else {
      return .refused(
        SequenceConflict(
          systemID: batch.systemID, expectedSequence: batch.expectedSequence, storedSequence: stored,
          writerEpoch: batch.epoch, storedEpoch: epoch))
    }
    // An empty Data may have no bytes' address, and GRDB then binds NULL
    // (`sqlite3_bind_blob` with a null pointer): the inserts turn NULL back
    // into the empty blob it stands for (payloads are never NULL).
    let insertEvent = try database.cachedStatement(
      sql: "INSERT INTO journal_events (system_id, sequence, payload) VALUES (?, ?, ifnull(?, x''))")
    var sequence = stored
    for event in batch.events {
      sequence += 1
      try insertEvent.execute(arguments: [batch.systemID, Int64(sequence), event])
    }
    try database.cachedStatement(
      sql: """
        INSERT INTO journal_systems (system_id, last_sequence) VALUES (?, ?)
        ON CONFLICT (system_id) DO UPDATE SET last_sequence = excluded.last_sequence
        """
    ).execute(arguments: [batch.systemID, Int64(sequence)])
    if let snapshot = batch.snapshot {
      try database.cachedStatement(
        sql: """
          INSERT INTO journal_snapshots (system_id, sequence, payload) VALUES (?, ?, ifnull(?, x''))
          ON CONFLICT (system_id) DO UPDATE SET sequence = excluded.sequence, payload = excluded.payload
          """
      ).execute(arguments: [batch.systemID, Int64(sequence), snapshot])
    }
    return .appended(through: sequence)
  }

  public func claim(_ systemID: String) async throws -> JournalClaim {
    try refuseNUL(in: systemID, operation: .claim)
    do {
      // One IMMEDIATE transaction: the epoch moves on and the history is read
      // under the write lock, so every append of the earlier epoch either
      // committed before (its events are in the history) or is refused.
      return try await database.writeWithoutTransaction { database in
        var claim = JournalClaim(epoch: 0, history: nil)
        try database.inTransaction(.immediate) {
          try database.cachedStatement(
            sql: """
              INSERT INTO journal_epochs (system_id, epoch) VALUES (?, 1)
              ON CONFLICT (system_id) DO UPDATE SET epoch = epoch + 1
              """
          ).execute(arguments: [systemID])
          let epoch =
            try Int64.fetchOne(
              database.cachedStatement(sql: "SELECT epoch FROM journal_epochs WHERE system_id = ?"),
              arguments: [systemID]) ?? 0
          claim = JournalClaim(epoch: UInt64(epoch), history: try Self.history(of: systemID, in: database))
          return .commit
        }
        return claim
      }
    } catch {
      throw SQLiteJournalError(path: path, operation: .claim, error: error)
    }
  }

  public func load(_ systemID: String) async throws -> JournalHistory? {
    try refuseNUL(in: systemID, operation: .load)
    do {
      return try await database.read { database in try Self.history(of: systemID, in: database) }
    } catch {
      throw SQLiteJournalError(path: path, operation: .load, error: error)
    }
  }

  private static func history(of systemID: String, in database: Database) throws -> JournalHistory? {
    guard
      try Int64.fetchOne(
        database.cachedStatement(sql: "SELECT last_sequence FROM journal_systems WHERE system_id = ?"),
        arguments: [systemID]) != nil
    else { return nil }
    let snapshot = try Row.fetchOne(
      database.cachedStatement(sql: "SELECT sequence, payload FROM journal_snapshots WHERE system_id = ?"),
      arguments: [systemID]
    ).map { JournalRecord(sequence: UInt64($0[0] as Int64), payload: $0[1]) }
    let events = try Row.fetchAll(
      database.cachedStatement(
        sql: """
          SELECT sequence, payload FROM journal_events WHERE system_id = ? AND sequence > ?
          ORDER BY sequence
          """),
      arguments: [systemID, Int64(snapshot?.sequence ?? 0)]
    ).map { JournalRecord(sequence: UInt64($0[0] as Int64), payload: $0[1]) }
    return JournalHistory(snapshot: snapshot, events: events)
  }

  public func systemIDs(after id: String?, limit: Int) async throws -> [String] {
    do {
      return try await database.read { database in
        // TEXT compares with BINARY, byte by byte of the UTF-8: ascending
        // order of the ids' scalars.
        if let id {
          return try String.fetchAll(
            database.cachedStatement(
              sql: "SELECT system_id FROM journal_systems WHERE system_id > ? ORDER BY system_id LIMIT ?"),
            arguments: [id, max(0, limit)])
        }
        return try String.fetchAll(
          database.cachedStatement(sql: "SELECT system_id FROM journal_systems ORDER BY system_id LIMIT ?"),
          arguments: [max(0, limit)])
      }
    } catch {
      throw SQLiteJournalError(path: path, operation: .list, error: error)
    }
  }

  public func delete(_ systemID: String) async throws {
    try refuseNUL(in: systemID, operation: .delete)
    // journal_epochs keeps the id's epoch: the next claim moves on from it.
    do {
      try await database.writeWithoutTransaction { database in
        try database.inTransaction(.immediate) {
          for table in ["journal_events", "journal_snapshots", "journal_systems"] {
            try database.execute(sql: "DELETE FROM \(table) WHERE system_id = ?", arguments: [systemID])
          }
          return .commit
        }
      }
    } catch {
      throw SQLiteJournalError(path: path, operation: .delete, error: error)
    }
  }

  /// SQLite binds a text up to its first NUL character: "a\0b" would be the
  /// system "a", its events appended to a's.
  private func refuseNUL(in systemID: String, operation: SQLiteJournalError.Operation) throws {
    guard systemID.utf8.contains(0) else { return }
    throw SQLiteJournalError(
      path: path, operation: operation, reason: .other,
      sqliteMessage: "the system id \(systemID.debugDescription) contains a NUL character, which SQLite ends a text at")
  }

  /// Closes the file: checkpoints the write-ahead log into it and releases
  /// it. Any later call fails.
  public func close() throws {
    do {
      try database.close()
    } catch {
      throw SQLiteJournalError(path: path, operation: .close, error: error)
    }
  }

  /// Runs `body` on the connection that writes, outside a transaction: for
  /// the tests, which read its settings and change its maximum page count
  /// as a full disk would, and as space coming back does.
  func withWriter<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
    try await database.writeWithoutTransaction(body)
  }
}
