import Foundation
import Logging
import NIOCore
import PostgresNIO

/// The cluster's inbox table: an event for an id waits there, in the
/// sender's committed row, until the id's owner has stored it in the
/// system's journal. Its channel wakes the owners when a row is committed.
struct Inbox: Sendable {
  let table: String
  let channel: String

  init(prefix: String) {
    table = prefix + "inbox"
    channel = prefix + "inbox"
  }

  struct Row: Sendable {
    let id: Int64
    let target: String
    let sender: String
    let sequence: UInt64
    let payload: Data
  }

  func create(on client: PostgresClient, logger: Logger) async throws {
    try await client.withTransaction(logger: logger) { connection in
      try await connection.query(
        "SELECT pg_advisory_xact_lock(\(Int64(bitPattern: ShardMap.stableHash(table))))", logger: logger)
      try await connection.query(
        """
        CREATE TABLE IF NOT EXISTS \(unescaped: table) (
          id bigserial PRIMARY KEY,
          shard integer NOT NULL,
          target text COLLATE "C" NOT NULL,
          sender text COLLATE "C" NOT NULL,
          sender_sequence bigint NOT NULL,
          payload bytea NOT NULL)
        """, logger: logger)
      try await connection.query(
        "CREATE INDEX IF NOT EXISTS \(unescaped: table)_by_shard ON \(unescaped: table) (shard, id)", logger: logger)
    }
  }

  /// Inserts the row and wakes the owners, in one statement: the
  /// notification is delivered when the row is committed, never before.
  func insert(
    shard: Int, target: String, sender: String, sequence: UInt64, payload: Data,
    on client: PostgresClient, logger: Logger
  ) async throws {
    try await client.query(
      """
      WITH inserted AS (
        INSERT INTO \(unescaped: table) (shard, target, sender, sender_sequence, payload)
        VALUES (\(Int32(shard)), \(target), \(sender), \(Int64(sequence)), \(ByteBuffer(bytes: payload)))
        RETURNING shard)
      SELECT pg_notify(\(channel), shard::text) FROM inserted
      """, logger: logger)
  }

  /// The oldest rows of `shards`, in the order they were inserted.
  func rows(of shards: [Int], limit: Int, on client: PostgresClient, logger: Logger) async throws -> [Row] {
    let shards = shards.map(Int32.init)
    var rows: [Row] = []
    for try await (id, target, sender, sequence, payload) in try await client.query(
      """
      SELECT id, target, sender, sender_sequence, payload FROM \(unescaped: table)
      WHERE shard = ANY(\(shards)) ORDER BY id LIMIT \(limit)
      """, logger: logger
    ).decode((Int64, String, String, Int64, ByteBuffer).self) {
      rows.append(
        Row(
          id: id, target: target, sender: sender, sequence: UInt64(sequence),
          payload: Data(payload.readableBytesView)))
    }
    return rows
  }

  /// The senders among `senders` with a row for `target` in the inbox.
  func senders(
    among senders: [String], to target: String, shard: Int, on client: PostgresClient, logger: Logger
  ) async throws -> Set<String> {
    var waiting: Set<String> = []
    for try await sender in try await client.query(
      """
      SELECT DISTINCT sender FROM \(unescaped: table)
      WHERE shard = \(Int32(shard)) AND target = \(target) AND sender = ANY(\(senders))
      """, logger: logger
    ).decode(String.self) {
      waiting.insert(sender)
    }
    return waiting
  }

  func delete(_ ids: [Int64], on client: PostgresClient, logger: Logger) async throws {
    guard !ids.isEmpty else { return }
    try await client.query("DELETE FROM \(unescaped: table) WHERE id = ANY(\(ids))", logger: logger)
  }
}
