/// Which shard a system id belongs to: a stable hash of the id, modulo the
/// cluster's shard count.
///
/// Every node of a cluster, in every process and on every machine, must map
/// an id to the same shard, so the hash is FNV-1a over the id's UTF-8 bytes,
/// never Swift's `Hasher`, whose seed changes with each process.
///
/// ```swift
/// let shards = ShardMap(shardCount: 64)
/// let shard = shards.shard(of: "cart-42")  // the same in every process
/// ```
public struct ShardMap: Sendable, Hashable {
  /// The number of shards, fixed for the life of a cluster's tables.
  public let shardCount: Int

  /// A map over `shardCount` shards (at least 1).
  public init(shardCount: Int) {
    if shardCount < 1 {
      fatalError("ShardMap(shardCount:) needs at least 1 shard, not \(shardCount).")
    }
    self.shardCount = shardCount
  }

  /// The shard of `systemID`, in `0..<shardCount`.
  public func shard(of systemID: String) -> Int {
    Int(Self.stableHash(systemID) % UInt64(shardCount))
  }

  /// FNV-1a, 64 bits, over the UTF-8 bytes of `text`.
  static func stableHash(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
      hash ^= UInt64(byte)
      hash &*= 0x0000_0100_0000_01b3
    }
    return hash
  }
}
