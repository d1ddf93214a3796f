import FeedbackLoopDurable
import Foundation
import Logging
import NIOCore
import PostgresNIO

/// A ``Journal`` in PostgreSQL, for durable systems that outgrow one machine.
///
/// It keeps three tables, named after a prefix (`feedbackloop_` by default):
/// the events (`system_id`, `sequence`, `payload`), the latest snapshot of
/// each system, and each system's head: its last sequence and its epoch.
/// An append moves the head with one conditional update whose condition is
/// the writer's epoch and expected sequence, so that two writers of one
/// system can never both append after the same sequence, and an owner
/// fenced by a later ``claim(_:)`` is refused by the server in the
/// append's own statement (``SequenceConflict``), whichever process or
/// machine it runs on, even one paused past the claim: the update waits for
/// the row lock that a claim or another append holds, then checks the row
/// as committed. A claim takes the same row lock, moves the epoch on and
/// reads the history in one transaction. A head outlives ``delete(_:)``
/// (its last sequence is then NULL: nothing stored) so that a re-created
/// id never reuses an epoch; opening the tables of an earlier version adds
/// the epoch column (0 for every system) and lets the last sequence be NULL. Events a snapshot covers are kept (they
/// go only with their system), so the journal is a ``FullHistoryJournal``,
/// and the replay check compares each system's latest snapshot with the
/// fold of its whole history.
///
/// The client is yours: run it (``PostgresClient/run()``) for as long as the
/// journal is used, as postgres-nio asks.
///
/// ```swift
/// let client = PostgresClient(configuration: .init(
///   host: "127.0.0.1", username: "app", password: nil, database: "app", tls: .disable))
/// try await withThrowingDiscardingTaskGroup { group in
///   group.addTask { await client.run() }
///   let journal = try await PostgresJournal.open(client: client)
///   let claim = try await journal.claim("cart-42")
///   _ = try await journal.append([
///     JournalBatch(systemID: "cart-42", epoch: claim.epoch, expectedSequence: 0, events: [added])
///   ])
///   group.cancelAll()
/// }
/// ```
public struct PostgresJournal: Journal {
  // Internal rather than private: the full history's reads
  // (PostgresJournal+FullHistory.swift) use them.
  let client: PostgresClient
  let tables: Tables
  private let operationTimeout: Duration?
  let logger: Logger

  /// Makes the journal's tables if they do not exist, and returns the
  /// journal. Calling it again, from this process or another, is harmless.
  ///
  /// ```swift
  /// // A durable system whose server is down hears it within 5 seconds.
  /// let journal = try await PostgresJournal.open(client: client, operationTimeout: .seconds(5))
  /// ```
  ///
  /// - Parameters:
  ///   - tablePrefix: lowercase letters, digits and underscores, starting
  ///     with a letter or an underscore, at most 54 of them.
  ///   - operationTimeout: how long an operation may take, waiting for a
  ///     connection included, before it fails with a
  ///     ``PostgresJournalError`` that says so. While the server is down,
  ///     postgres-nio's pool keeps a request waiting as it connects again
  ///     and again, for up to a minute (its circuit breaker, which
  ///     `PostgresClient` does not let you set); so without this bound, a
  ///     durable system would hear of a stopped server only then. An
  ///     append that timed out is not acknowledged, and may still be
  ///     committed if the server had it: a restore reads what is stored.
  ///     `nil` waits as long as the pool does.
  public static func open(
    client: PostgresClient,
    tablePrefix: String = "feedbackloop_",
    operationTimeout: Duration? = .seconds(10),
    logger: Logger = Logger(label: "FeedbackLoopPostgreSQL")
  ) async throws -> PostgresJournal {
    if let operationTimeout, operationTimeout <= .zero {
      fatalError("PostgresJournal.open(operationTimeout:) needs a positive duration or nil, not \(operationTimeout).")
    }
    let journal = PostgresJournal(
      client: client, tables: Tables(prefix: tablePrefix), operationTimeout: operationTimeout, logger: logger)
    try await journal.createTables()
    return journal
  }

  private init(client: PostgresClient, tables: Tables, operationTimeout: Duration?, logger: Logger) {
    self.client = client
    self.tables = tables
    self.operationTimeout = operationTimeout
    self.logger = logger
  }

  public func append(_ batches: [JournalBatch]) async throws -> [JournalAppendResult] {
    guard !batches.isEmpty else { return [] }
    for batch in batches where batch.lastSequence > UInt64(Int64.max) {
      throw PostgresJournalError(
        operation: "append to \"\(batch.systemID)\"",
        reason: "sequence \(batch.lastSequence) does not fit PostgreSQL's bigint")
    }
    // Heads are claimed in the order of their ids (a stable order, so that a
    // system's batches keep theirs): two calls that touch the same systems
    // then lock their heads in one order and cannot deadlock.
    let order = batches.indices.sorted { (batches[$0].systemID, $0) < (batches[$1].systemID, $1) }
    let tables = self.tables
    let logger = self.logger
    let outcomes = try await run("append \(batches.count) batch\(batches.count == 1 ? "" : "es")") {
      try await client.withTransaction(logger: logger) { connection in
        var outcomes: [(Int, JournalAppendResult)] = []
        for index in order {
          outcomes.append((index, try await Self.append(batches[index], on: connection, tables, logger)))
        }
        return outcomes
      }
    }
    var results = [JournalAppendResult](repeating: .appended(through: 0), count: batches.count)
    for (index, result) in outcomes { results[index] = result }
    return results
  }

  private static func append(
    _ batch: JournalBatch, on connection: PostgresConnection, _ tables: Tables, _ logger: Logger
  ) async throws -> JournalAppendResult {
    let id = batch.systemID
    let expected = Int64(batch.expectedSequence)
    let last = Int64(batch.lastSequence)
    let epoch = Int64(batch.epoch)
    // The fence and the sequence check are the update's own condition, on
    // the head row it locks: a claim committed while this update waited for
    // the row is seen (PostgreSQL checks the condition again on the row as
    // committed), and a claim that comes later waits for this transaction.
    let moveHead: PostgresQuery
    if expected == 0 && epoch == 0 {
      // A system never claimed and with nothing stored has no head yet; one
      // that stored only a snapshot of its first state has a head at 0.
      moveHead = """
        INSERT INTO \(unescaped: tables.heads) (system_id, last_sequence, epoch) VALUES (\(id), \(last), 0)
        ON CONFLICT (system_id) DO UPDATE SET last_sequence = EXCLUDED.last_sequence
        WHERE coalesce(\(unescaped: tables.heads).last_sequence, 0) = 0 AND \(unescaped: tables.heads).epoch = 0
        RETURNING last_sequence
        """
    } else {
      // A claimed system has a head (its claim made it), so an update finds
      // it; NULL is a head with nothing stored (claimed, or deleted).
      moveHead = """
        UPDATE \(unescaped: tables.heads) SET last_sequence = \(last)
        WHERE system_id = \(id) AND epoch = \(epoch) AND coalesce(last_sequence, 0) = \(expected)
        RETURNING last_sequence
        """
    }
    let moved = try await connection.query(moveHead, logger: logger).collect()
    guard moved.count == 1 else {
      // Only when refused: what the head holds, for the refusal's message.
      var (storedSequence, storedEpoch): (Int64, Int64) = (0, 0)
      for try await head in try await connection.query(
        "SELECT coalesce(last_sequence, 0), epoch FROM \(unescaped: tables.heads) WHERE system_id = \(id)",
        logger: logger
      ).decode((Int64, Int64).self) {
        (storedSequence, storedEpoch) = head
      }
      return .refused(
        SequenceConflict(
          systemID: id, expectedSequence: batch.expectedSequence, storedSequence: UInt64(storedSequence),
          writerEpoch: batch.epoch, storedEpoch: UInt64(storedEpoch)))
    }
    if !batch.events.isEmpty {
      let sequences = batch.events.indices.map { expected + 1 + Int64($0) }
      let payloads = batch.events.map { ByteBuffer(bytes: $0) }
      try await connection.query(
        """
        INSERT INTO \(unescaped: tables.events) (system_id, sequence, payload)
        SELECT \(id), event.sequence, event.payload
        FROM unnest(\(sequences)::bigint[], \(payloads)::bytea[]) AS event(sequence, payload)
        """, logger: logger)
    }
    if let snapshot = batch.snapshot {
      try await connection.query(
        """
        INSERT INTO \(unescaped: tables.snapshots) (system_id, sequence, payload)
        VALUES (\(id), \(last), \(ByteBuffer(bytes: snapshot)))
        ON CONFLICT (system_id) DO UPDATE SET sequence = EXCLUDED.sequence, payload = EXCLUDED.payload
        """, logger: logger)
    }
    return .appended(through: batch.lastSequence)
  }

  public func claim(_ systemID: String) async throws -> JournalClaim {
    let tables = self.tables
    let logger = self.logger
    return try await run("claim \"\(systemID)\"") {
      try await client.withTransaction(logger: logger) { connection -> JournalClaim in
        // The upsert locks the head row until the commit: an append of the
        // former epoch either committed before it (and the reads below,
        // each a view taken after it, see its events) or waits for it and
        // is refused. No append can move the head between the reads.
        var claimed: (epoch: Int64, isStored: Bool)?
        for try await head in try await connection.query(
          """
          INSERT INTO \(unescaped: tables.heads) (system_id, last_sequence, epoch) VALUES (\(systemID), NULL, 1)
          ON CONFLICT (system_id) DO UPDATE SET epoch = \(unescaped: tables.heads).epoch + 1
          RETURNING epoch, last_sequence IS NOT NULL
          """, logger: logger
        ).decode((Int64, Bool).self) {
          claimed = head
        }
        guard let (epoch, isStored) = claimed else {
          throw PostgresJournalError(
            operation: "claim \"\(systemID)\"", reason: "the upsert of its head returned no row")
        }
        let history = isStored ? try await Self.history(of: systemID, on: connection, tables, logger) : nil
        return JournalClaim(epoch: UInt64(epoch), history: history)
      }
    }
  }

  public func load(_ systemID: String) async throws -> JournalHistory? {
    let tables = self.tables
    let logger = self.logger
    return try await run("load \"\(systemID)\"") {
      try await client.withTransaction(logger: logger) { connection -> JournalHistory? in
        // One view of the tables for the three reads: an append committed
        // between them cannot pair a snapshot with the wrong events.
        try await connection.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ", logger: logger)
        let head = try await connection.query(
          """
          SELECT last_sequence FROM \(unescaped: tables.heads)
          WHERE system_id = \(systemID) AND last_sequence IS NOT NULL
          """, logger: logger
        ).collect()
        guard !head.isEmpty else { return nil }
        return try await Self.history(of: systemID, on: connection, tables, logger)
      }
    }
  }

  /// The latest snapshot of a system that has something stored, and the
  /// events after it.
  private static func history(
    of systemID: String, on connection: PostgresConnection, _ tables: Tables, _ logger: Logger
  ) async throws -> JournalHistory {
    var snapshot: JournalRecord?
    for try await (sequence, payload) in try await connection.query(
      "SELECT sequence, payload FROM \(unescaped: tables.snapshots) WHERE system_id = \(systemID)",
      logger: logger
    ).decode((Int64, ByteBuffer).self) {
      snapshot = JournalRecord(sequence: UInt64(sequence), payload: Data(payload.readableBytesView))
    }
    let after = Int64(snapshot?.sequence ?? 0)
    var events: [JournalRecord] = []
    for try await (sequence, payload) in try await connection.query(
      """
      SELECT sequence, payload FROM \(unescaped: tables.events)
      WHERE system_id = \(systemID) AND sequence > \(after) ORDER BY sequence
      """, logger: logger
    ).decode((Int64, ByteBuffer).self) {
      events.append(JournalRecord(sequence: UInt64(sequence), payload: Data(payload.readableBytesView)))
    }
    return JournalHistory(snapshot: snapshot, events: events)
  }

  public func systemIDs(after id: String?, limit: Int) async throws -> [String] {
    guard limit > 0 else { return [] }
    let query: PostgresQuery
    if let id {
      query = """
        SELECT system_id FROM \(unescaped: tables.heads)
        WHERE system_id > \(id) AND last_sequence IS NOT NULL
        ORDER BY system_id LIMIT \(limit)
        """
    } else {
      query = """
        SELECT system_id FROM \(unescaped: tables.heads) WHERE last_sequence IS NOT NULL
        ORDER BY system_id LIMIT \(limit)
        """
    }
    let logger = self.logger
    return try await run("list systems") {
      var ids: [String] = []
      for try await systemID in try await client.query(query, logger: logger).decode(String.self) {
        ids.append(systemID)
      }
      return ids
    }
  }

  public func delete(_ systemID: String) async throws {
    let tables = self.tables
    let logger = self.logger
    try await run("delete \"\(systemID)\"") {
      try await client.withTransaction(logger: logger) { connection in
        // The head first, which locks it against appends. A claimed head
        // stays, its last sequence NULL (nothing stored), so that the next
        // claim moves its epoch on; one never claimed goes.
        try await connection.query(
          """
          UPDATE \(unescaped: tables.heads) SET last_sequence = NULL WHERE system_id = \(systemID) AND epoch > 0
          """, logger: logger)
        try await connection.query(
          "DELETE FROM \(unescaped: tables.heads) WHERE system_id = \(systemID) AND epoch = 0", logger: logger)
        for table in [tables.events, tables.snapshots] {
          try await connection.query(
            "DELETE FROM \(unescaped: table) WHERE system_id = \(systemID)", logger: logger)
        }
      }
    }
  }

  private func createTables() async throws {
    let logger = self.logger
    let tables = self.tables
    try await run("create its tables") {
      // `COLLATE "C"`: ids in the byte order of their UTF-8, which is the
      // order of Swift's `String` comparison, whatever the database's locale.
      try await client.withTransaction(logger: logger) { connection in
        // Two processes opening one database at once would race on
        // CREATE TABLE IF NOT EXISTS; the lock makes the second wait.
        try await connection.query("SELECT pg_advisory_xact_lock(\(Self.creationLock))", logger: logger)
        try await connection.query(
          """
          CREATE TABLE IF NOT EXISTS \(unescaped: tables.heads) (
            system_id text COLLATE "C" PRIMARY KEY,
            last_sequence bigint,
            epoch bigint NOT NULL DEFAULT 0)
          """, logger: logger)
        // The heads of a version before epochs: every system at epoch 0 until
        // it is claimed. Altered only when they are of that version: an
        // ALTER TABLE locks the table against the appends of running nodes,
        // even when it has nothing to change.
        try await connection.query(
          """
          DO $$ BEGIN
            IF NOT EXISTS (
              SELECT 1 FROM information_schema.columns
              WHERE table_schema = current_schema() AND table_name = '\(unescaped: tables.heads)'
                AND column_name = 'epoch')
            THEN
              ALTER TABLE \(unescaped: tables.heads) ADD COLUMN epoch bigint NOT NULL DEFAULT 0;
              ALTER TABLE \(unescaped: tables.heads) ALTER COLUMN last_sequence DROP NOT NULL;
            END IF;
          END $$
          """, logger: logger)
        try await connection.query(
          """
          CREATE TABLE IF NOT EXISTS \(unescaped: tables.events) (
            system_id text COLLATE "C" NOT NULL,
            sequence bigint NOT NULL,
            payload bytea NOT NULL,
            PRIMARY KEY (system_id, sequence))
          """, logger: logger)
        try await connection.query(
          """
          CREATE TABLE IF NOT EXISTS \(unescaped: tables.snapshots) (
            system_id text COLLATE "C" PRIMARY KEY,
            sequence bigint NOT NULL,
            payload bytea NOT NULL)
          """, logger: logger)
      }
    }
  }

  /// An arbitrary constant that names the journal's table creation among
  /// the database's advisory locks.
  private static let creationLock: Int64 = 0x4665_6564_4c6f_6f70

  func run<Result: Sendable>(
    _ operation: String, _ body: @escaping @Sendable () async throws -> Result
  ) async throws -> Result {
    do {
      guard let operationTimeout else { return try await body() }
      return try await withDeadline(operationTimeout, body)
    } catch let timeout as OperationTimedOut {
      throw PostgresJournalError(
        operation: operation,
        reason: "the server did not answer within \(timeout.timeout) (is it down or unreachable?), so the "
          + "operation was abandoned; an append abandoned so is not acknowledged, though the server may "
          + "still commit it if it had it")
    } catch let error as PostgresTransactionError {
      let cause: any Error = error.closureError ?? error.commitError ?? error.beginError ?? error
      throw PostgresJournalError(operation: operation, reason: String(reflecting: cause))
    } catch {
      throw PostgresJournalError(operation: operation, reason: String(reflecting: error))
    }
  }

  /// Runs `body` and returns its result, or throws ``OperationTimedOut``
  /// after `timeout`: then `body`'s task is cancelled, and not waited for
  /// (a query already on the wire may not stop at once).
  private func withDeadline<Result: Sendable>(
    _ timeout: Duration, _ body: @escaping @Sendable () async throws -> Result
  ) async throws -> Result {
    let outcome = FirstOutcome<Result>()
    let work = Task {
      do {
        outcome.settle(.success(try await body()))
      } catch {
        outcome.settle(.failure(error))
      }
    }
    let timer = Task {
      try await Task.sleep(for: timeout)
      if outcome.settle(.failure(OperationTimedOut(timeout: timeout))) { work.cancel() }
    }
    defer { timer.cancel() }
    return try await withTaskCancellationHandler {
      try await outcome.value()
    } onCancel: {
      work.cancel()
    }
  }

  struct Tables: Sendable {
    let heads: String
    let events: String
    let snapshots: String

    init(prefix: String) {
      let allowed = prefix.utf8.allSatisfy { byte in
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
          || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
      }
      guard allowed, let first = prefix.utf8.first, !(first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9"))
      else {
        fatalError(
          "PostgresJournal's table prefix \"\(prefix)\" must be lowercase letters, digits and underscores, "
            + "starting with a letter or an underscore: it is written into SQL as it is.")
      }
      // PostgreSQL cuts a name at 63 bytes: past 54, "snapshots" would be
      // cut, and from 63 on the three tables would have one name.
      guard prefix.utf8.count <= 63 - "snapshots".utf8.count else {
        fatalError(
          "PostgresJournal's table prefix \"\(prefix)\" has \(prefix.utf8.count) bytes; at most 54 keep its tables' "
            + "names within PostgreSQL's 63-byte names.")
      }
      heads = prefix + "heads"
      events = prefix + "events"
      snapshots = prefix + "snapshots"
    }
  }
}

/// An operation of the journal that took longer than its timeout.
private struct OperationTimedOut: Error {
  let timeout: Duration
}

/// The first of several results to arrive, handed to one waiter.
private final class FirstOutcome<Value: Sendable>: Sendable {
  private struct State {
    var result: Result<Value, any Error>?
    var waiter: CheckedContinuation<Value, any Error>?
  }

  // `Locked`, not a bare `Mutex`: the work, the timer and the waiter can
  // contend for it, and ThreadSanitizer sees only `Locked`'s hand-over.
  private let state = Locked(State())

  /// Keeps `result` unless one came first; returns whether it was kept.
  @discardableResult
  func settle(_ result: Result<Value, any Error>) -> Bool {
    let (kept, waiter) = state.withLock { state -> (Bool, CheckedContinuation<Value, any Error>?) in
      guard state.result == nil else { return (false, nil) }
      state.result = result
      defer { state.waiter = nil }
      return (true, state.waiter)
    }
    waiter?.resume(with: result)
    return kept
  }

  func value() async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
      let result = state.withLock { state -> Result<Value, any Error>? in
        if state.result == nil { state.waiter = continuation }
        return state.result
      }
      if let result { continuation.resume(with: result) }
    }
  }
}
