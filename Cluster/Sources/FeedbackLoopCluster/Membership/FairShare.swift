/// How many shards a node should hold: the shard count split evenly over
/// the live members, the remainder going one each to the members first in
/// the order of their ids.
///
/// Every node computes it from the same table, so the shares add up to the
/// shard count and the nodes agree without talking to each other; while
/// members disagree (one joined since another last read the table), some
/// shards stay free for a round, never doubly held: the database's leases
/// decide ownership, the share only how many a node asks for.
struct FairShare {
  /// The share of `nodeID` among `liveMembers`; a node that does not see
  /// itself (its heartbeat not yet visible) counts itself in.
  static func target(of nodeID: String, liveMembers: [String], shardCount: Int) -> Int {
    var members = Set(liveMembers)
    members.insert(nodeID)
    let rank = members.sorted().firstIndex(of: nodeID)!
    let (base, remainder) = shardCount.quotientAndRemainder(dividingBy: members.count)
    return base + (rank < remainder ? 1 : 0)
  }
}
