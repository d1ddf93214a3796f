/// The operator's knobs of a cluster: how ids are spread, how long a lease
/// lasts, and where the cluster's tables are.
///
/// Every node of one cluster must be given the same shard count and table
/// prefix; the lease times may differ between nodes during a rolling change.
///
/// ```swift
/// // Shards of a node that dies are taken over 5 to 7 seconds after its last renewal.
/// let settings = ClusterSettings(shardCount: 256, leaseDuration: .seconds(5))
/// ```
public struct ClusterSettings: Sendable, Hashable {
  /// How many shards the ids are spread over. Fixed for the life of the
  /// cluster's tables: a node given another count refuses to join.
  public var shardCount: Int
  /// How long a node holds a shard (and counts as a member) after its last
  /// renewal, measured on the database's clock.
  public var leaseDuration: Duration
  /// How often a running node renews its leases and rebalances; less than
  /// `leaseDuration`, so that a live node renews before its leases expire.
  public var renewalInterval: Duration
  /// The prefix of the cluster's tables: lowercase letters, digits and
  /// underscores, starting with a letter or an underscore, at most 48 of them.
  public var tablePrefix: String

  /// Settings whose renewal interval is a third of the lease, by default.
  public init(
    shardCount: Int = 64,
    leaseDuration: Duration = .seconds(10),
    renewalInterval: Duration? = nil,
    tablePrefix: String = "feedbackloop_cluster_"
  ) {
    self.shardCount = shardCount
    self.leaseDuration = leaseDuration
    self.renewalInterval = renewalInterval ?? leaseDuration / 3
    self.tablePrefix = tablePrefix
  }

  /// Stops with a message that says what is wrong, in optimized builds too.
  func validate() {
    if shardCount < 1 { fatalError("ClusterSettings(shardCount:) needs at least 1 shard, not \(shardCount).") }
    if leaseDuration < .milliseconds(100) {
      fatalError("ClusterSettings(leaseDuration:) needs at least 100 milliseconds, not \(leaseDuration).")
    }
    if renewalInterval <= .zero || renewalInterval >= leaseDuration {
      fatalError(
        "ClusterSettings(renewalInterval:) must be positive and shorter than the lease (\(leaseDuration)), "
          + "not \(renewalInterval): a node would let its leases expire between two renewals.")
    }
    let isValidPrefix =
      !tablePrefix.isEmpty && tablePrefix.utf8.count <= 48
      && tablePrefix.utf8.allSatisfy { ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 95 }
      && !(tablePrefix.utf8.first.map { $0 >= 48 && $0 <= 57 } ?? true)
    if !isValidPrefix {
      fatalError(
        "ClusterSettings(tablePrefix:) \"\(tablePrefix)\" must be lowercase letters, digits and underscores, "
          + "starting with a letter or an underscore, at most 48 of them.")
    }
  }

  /// The lease in whole milliseconds, as the SQL intervals take it.
  var leaseMilliseconds: Int64 {
    let (seconds, attoseconds) = leaseDuration.components
    return seconds * 1000 + attoseconds / 1_000_000_000_000_000
  }
}
