import Logging
import PostgresNIO

/// The cluster's tables in PostgreSQL, named after the settings' prefix:
/// - members: one row per node, with the instant its membership expires;
/// - shards: one row per shard, with its owner, the epoch of its lease (one
///   more at each claim) and the instant the lease expires.
///
/// Every instant is the database's `now()`: the nodes' clocks never decide
/// who owns what.
struct ClusterTables: Sendable {
  let members: String
  let shards: String

  init(prefix: String) {
    members = prefix + "members"
    shards = prefix + "shards"
  }

  /// An advisory lock key of the tables' creation, the same in every process.
  private var creationLock: Int64 { Int64(bitPattern: ShardMap.stableHash(shards)) }

  /// Makes the tables if missing and the shards' rows; throws when the
  /// tables hold another number of shards than `shardCount`.
  func create(shardCount: Int, on client: PostgresClient, logger: Logger) async throws {
    do {
      try await create(shardCount: shardCount, inTransactionOf: client, logger: logger)
    } catch let error as PostgresTransactionError {
      // postgres-nio wraps what the transaction's body threw.
      if let mismatch = error.closureError as? ClusterError { throw mismatch }
      throw error
    }
  }

  private func create(shardCount: Int, inTransactionOf client: PostgresClient, logger: Logger) async throws {
    try await client.withTransaction(logger: logger) { connection in
      // Two nodes that start together would otherwise race in CREATE TABLE.
      try await connection.query("SELECT pg_advisory_xact_lock(\(creationLock))", logger: logger)
      try await connection.query(
        """
        CREATE TABLE IF NOT EXISTS \(unescaped: members) (
          node_id text COLLATE "C" PRIMARY KEY,
          joined_at timestamptz NOT NULL DEFAULT now(),
          expires_at timestamptz NOT NULL)
        """, logger: logger)
      try await connection.query(
        """
        CREATE TABLE IF NOT EXISTS \(unescaped: shards) (
          shard integer PRIMARY KEY,
          owner text COLLATE "C",
          epoch bigint NOT NULL DEFAULT 0,
          expires_at timestamptz NOT NULL DEFAULT now())
        """, logger: logger)
      let existing =
        try await connection.query("SELECT count(*) FROM \(unescaped: shards)", logger: logger)
        .collect().first?.decode(Int64.self) ?? 0
      if existing == 0 {
        try await connection.query(
          """
          INSERT INTO \(unescaped: shards) (shard)
          SELECT shard FROM generate_series(0, \(shardCount - 1)) AS shard
          """, logger: logger)
      } else if existing != Int64(shardCount) {
        throw ClusterError.shardCountMismatch(expected: shardCount, stored: Int(existing), table: shards)
      }
    }
  }
}
