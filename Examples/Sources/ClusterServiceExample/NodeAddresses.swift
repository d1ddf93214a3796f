import Logging
import PostgresNIO

/// The HTTP address of each node, in a table beside the cluster's, so that
/// a node that does not own an id can find the one that does: the owner of
/// the id's shard in the cluster's shards table (a live lease, by the
/// database's clock), joined with its address here.
///
/// ```swift
/// let addresses = NodeAddresses(tablePrefix: "tally_")
/// try await addresses.register(node: node.id, baseURL: "http://127.0.0.1:8081", on: client)
/// let owner = try await addresses.owner(ofShard: 3, on: client)   // "http://127.0.0.1:8082", or nil
/// ```
public struct NodeAddresses: Sendable {
  /// The cluster's table prefix (`ClusterSettings.tablePrefix`): the
  /// shards table is `<prefix>shards`, this one `<prefix>http_addresses`.
  public let tablePrefix: String
  private let logger: Logger

  public init(tablePrefix: String, logger: Logger = Logger(label: "cluster-service")) {
    self.tablePrefix = tablePrefix
    self.logger = logger
  }

  private var table: String { tablePrefix + "http_addresses" }
  private var shards: String { tablePrefix + "shards" }

  /// Records `baseURL` as the address of `node` (a node run: a restarted
  /// process registers its new id).
  public func register(node: String, baseURL: String, on client: PostgresClient) async throws {
    try await client.query(
      """
      CREATE TABLE IF NOT EXISTS \(unescaped: table) (
        node_id text COLLATE "C" PRIMARY KEY,
        base_url text NOT NULL)
      """, logger: logger)
    try await client.query(
      """
      INSERT INTO \(unescaped: table) (node_id, base_url) VALUES (\(node), \(baseURL))
      ON CONFLICT (node_id) DO UPDATE SET base_url = EXCLUDED.base_url
      """, logger: logger)
  }

  /// The address of the node whose lease on `shard` is live now, or `nil`
  /// when none is (the owner died and its lease has not run out, or the
  /// shard is between two owners).
  public func owner(ofShard shard: Int, on client: PostgresClient) async throws -> String? {
    let rows = try await client.query(
      """
      SELECT a.base_url FROM \(unescaped: shards) s JOIN \(unescaped: table) a ON a.node_id = s.owner
      WHERE s.shard = \(shard) AND s.expires_at > now()
      """, logger: logger)
    for try await baseURL in rows.decode(String.self) { return baseURL }
    return nil
  }

  /// Forgets `node`'s address, when it leaves.
  public func remove(node: String, on client: PostgresClient) async throws {
    try await client.query("DELETE FROM \(unescaped: table) WHERE node_id = \(node)", logger: logger)
  }
}
