/// What one round of a node's leases changed (``ClusterNode/refreshLeases()``).
///
/// ```swift
/// let changes = try await node.refreshLeases()
/// for shard in changes.lost { log.warning("shard \(shard) was taken over") }
/// ```
public struct ShardLeaseChanges: Sendable, Hashable {
  /// Shards claimed this round: free ones, or ones whose lease expired.
  public var claimed: [Int] = []
  /// Shards given up this round for the other members' fair share.
  public var released: [Int] = []
  /// Shards the node held and could not renew: its lease expired (the node
  /// was paused or cut off) and another node may hold them now.
  public var lost: [Int] = []

  /// Whether the round changed nothing.
  public var isEmpty: Bool { claimed.isEmpty && released.isEmpty && lost.isEmpty }
}
