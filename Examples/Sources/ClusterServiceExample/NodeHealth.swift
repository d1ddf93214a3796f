/// What `GET /health` answers: the node and what it holds now.
public struct NodeHealth: Codable, Sendable, Equatable {
  /// The node's id in the cluster.
  public var node: String
  /// The shards the node's leases cover, ascending.
  public var ownedShards: [Int]
  /// How many systems the node has in memory.
  public var loadedSystems: Int

  public init(node: String, ownedShards: [Int], loadedSystems: Int) {
    self.node = node
    self.ownedShards = ownedShards
    self.loadedSystems = loadedSystems
  }
}
