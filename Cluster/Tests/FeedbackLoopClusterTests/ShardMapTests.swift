import Testing

@testable import FeedbackLoopCluster

@Suite("Shard map and fair share")
struct ShardMapTests {
  @Test("an id's shard is a stable hash, the same in every process")
  func stableHash() {
    // FNV-1a 64's published test vectors: Swift's `Hasher` would change with each process.
    #expect(ShardMap.stableHash("") == 0xcbf2_9ce4_8422_2325)
    #expect(ShardMap.stableHash("a") == 0xaf63_dc4c_8601_ec8c)
    #expect(ShardMap.stableHash("foobar") == 0x8594_4171_f739_67e8)
    let map = ShardMap(shardCount: 7)
    #expect(map.shard(of: "foobar") == Int(UInt64(0x8594_4171_f739_67e8) % 7))
  }

  @Test("ids spread over every shard, each in range")
  func spread() {
    let map = ShardMap(shardCount: 16)
    var counts = [Int](repeating: 0, count: 16)
    for index in 0..<16_000 { counts[map.shard(of: "cart-\(index)")] += 1 }
    #expect(counts.allSatisfy { $0 > 800 && $0 < 1_200 }, "\(counts)")
  }

  @Test("the members' fair shares add up to the shard count, the remainder to the first ids")
  func fairShares() {
    let members = ["c", "a", "b"]
    let shares = members.map { FairShare.target(of: $0, liveMembers: members, shardCount: 8) }
    #expect(shares == [2, 3, 3])
    #expect(FairShare.target(of: "z", liveMembers: [], shardCount: 8) == 8)
    // A node whose own heartbeat is not visible yet counts itself in.
    #expect(FairShare.target(of: "b", liveMembers: ["a"], shardCount: 8) == 4)
    #expect(FairShare.target(of: "a", liveMembers: ["a", "b", "c"], shardCount: 2) == 1)
    #expect(FairShare.target(of: "c", liveMembers: ["a", "b", "c"], shardCount: 2) == 0)
  }
}
