/// Why a ``ClusterNode`` or a ``ClusterHost`` could not do what it was asked.
///
/// This enum will grow: end a `switch` over it with `default:` or
/// `@unknown default:`.
///
/// ```swift
/// do {
///   let node = try await ClusterNode.join(client: client, settings: settings)
/// } catch ClusterError.shardCountMismatch(let expected, let stored, _) {
///   log.critical("this node was built for \(expected) shards; the cluster has \(stored)")
/// }
/// ```
public enum ClusterError: Error, CustomStringConvertible {
  /// The cluster's tables hold another number of shards than the node's
  /// settings say: the node would map ids to other shards than its peers.
  case shardCountMismatch(expected: Int, stored: Int, table: String)
  /// The node left the cluster (``ClusterNode/leave()``).
  case left(nodeID: String)
  /// The system id holds a NUL character, which PostgreSQL's text cannot
  /// store: the id is refused before anything is written.
  case systemIDHoldsNUL(String)

  public var description: String {
    switch self {
    case .shardCountMismatch(let expected, let stored, let table):
      "The cluster's table \(table) holds \(stored) shards, and this node's settings say \(expected): "
        + "every node of one cluster must use the same shard count (or another table prefix)."
    case .left(let nodeID):
      "The cluster node \"\(nodeID)\" left its cluster: it holds no shard and renews nothing."
    case .systemIDHoldsNUL(let id):
      "The system id \(id.debugDescription) holds a NUL character (\\0), which PostgreSQL cannot store in text: "
        + "use ids without it (encode binary ids, in hexadecimal or base64 for instance)."
    }
  }
}
