import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle

/// One process's membership of a cluster: the shards it holds, leased in
/// PostgreSQL, renewed while it lives, handed over when it leaves.
///
/// System ids are spread over a fixed number of shards (``ShardMap``); a
/// node holds a lease on each of its shards, in the cluster's tables, that
/// expires unless it is renewed. Each round (``refreshLeases()``, which
/// ``run()`` repeats every ``ClusterSettings/renewalInterval``) the node:
/// 1. renews its membership and the leases it still holds;
/// 2. reads the live members and works out its fair share of the shards;
/// 3. gives up the shards beyond its share, or claims free and expired ones
///    up to it.
///
/// So a node that joins takes shards from the others within a round or
/// two; a node that leaves (``leave()``) frees its shards at once; a node
/// that dies or is paused loses them when its leases expire, and the live
/// nodes claim them. Lease times are the database's (`now()`), never a
/// node's clock.
///
/// ```swift
/// let node = try await ClusterNode.join(client: client, settings: ClusterSettings(leaseDuration: .seconds(10)))
/// let leases = Task { await node.run() }   // renews and rebalances until cancelled
/// if node.owns("cart-42") { /* this process runs cart-42 */ }
/// leases.cancel()
/// try await node.leave()                   // the other nodes take its shards at once
/// ```
///
/// A lease is a promise of the database, which a paused node cannot see
/// expire: ``ownedShards`` counts a lease only until the node's own clock
/// says it could have expired (the lease from the moment the renewal was
/// sent), so a node that could not renew stops claiming its shards even
/// before it hears why.
public final class ClusterNode: Service, Sendable {
  /// The node's id in the cluster's tables: unique per process run.
  public let id: String
  /// The settings the node joined with.
  public let settings: ClusterSettings
  /// How the cluster maps ids to shards.
  public let shardMap: ShardMap

  private let client: PostgresClient
  private let tables: ClusterTables
  private let logger: Logger
  private let leases = Locked(HeldLeases())
  /// The members the last round read as live, this node among them.
  private let members = Locked<Set<String>>([])
  /// Called with the shards the node is about to give up, or has lost,
  /// before the database hears of it: the hosts stop their systems there.
  private let handOvers = Locked<[@Sendable ([Int]) async -> Void]>([])
  /// Called with the shards the node has just claimed.
  private let takeOvers = Locked<[@Sendable ([Int]) -> Void]>([])

  private init(id: String, settings: ClusterSettings, client: PostgresClient, logger: Logger) {
    self.id = id
    self.settings = settings
    self.shardMap = ShardMap(shardCount: settings.shardCount)
    self.client = client
    self.tables = ClusterTables(prefix: settings.tablePrefix)
    self.logger = logger
  }

  /// Joins the cluster whose tables `settings` names (making them if
  /// missing) and claims the node's first share of shards.
  ///
  /// ```swift
  /// let node = try await ClusterNode.join(client: client, nodeID: "api-1-\(UUID())")
  /// ```
  ///
  /// - Parameters:
  ///   - client: a running postgres-nio client (run it for as long as the
  ///     node lives).
  ///   - nodeID: the node's id: unique per process run (a restarted
  ///     process is a new node), since a node takes its own id's rows as
  ///     its own.
  ///   - settings: the cluster's shard count, table prefix and lease times.
  ///   - logger: where lost leases and failed rounds are logged.
  /// - Throws: ``ClusterError/shardCountMismatch(expected:stored:table:)``
  ///   when the tables hold another shard count; the database's errors.
  public static func join(
    client: PostgresClient,
    nodeID: String = "node-\(UUID().uuidString.lowercased())",
    settings: ClusterSettings = ClusterSettings(),
    logger: Logger = Logger(label: "FeedbackLoopCluster")
  ) async throws -> ClusterNode {
    settings.validate()
    let node = ClusterNode(id: nodeID, settings: settings, client: client, logger: logger)
    try await node.tables.create(shardCount: settings.shardCount, on: client, logger: logger)
    _ = try await node.refreshLeases()
    return node
  }

  // MARK: - Ownership

  /// The shards the node holds now, ascending: leased to it, and renewed
  /// less than a lease ago by the node's clock.
  public var ownedShards: [Int] {
    leases.withLock { $0.valid(at: .now) }.sorted()
  }

  /// Whether the node holds the shard of `systemID` now.
  ///
  /// ```swift
  /// if node.owns("cart-42") { try await carts.send(.add("tea"), to: "cart-42") }
  /// ```
  public func owns(_ systemID: String) -> Bool {
    let shard = shardMap.shard(of: systemID)
    return leases.withLock { $0.valid(at: .now).contains(shard) }
  }

  /// The ids of the nodes that were live at the node's last round, its own
  /// among them: a sender missing from it is a node run that is gone, or
  /// that joined since.
  var liveMembers: Set<String> { members.withLock { $0 } }

  // MARK: - Rounds

  /// Renews the node's membership and leases, then gives up or claims
  /// shards toward its fair share; returns what changed.
  ///
  /// ``run()`` calls it every ``ClusterSettings/renewalInterval``; call it
  /// yourself to drive the node step by step (tests do). Rounds of one node
  /// must not overlap.
  ///
  /// ```swift
  /// let changes = try await node.refreshLeases()
  /// print(changes.claimed, node.ownedShards)
  /// ```
  ///
  /// - Throws: ``ClusterError/left(nodeID:)`` after ``leave()``; the
  ///   database's errors (the node's leases then run out by its own clock
  ///   unless a later round renews them).
  @discardableResult
  public func refreshLeases() async throws -> ShardLeaseChanges {
    let (isLeft, wasRefreshing) = leases.withLock { leases in
      defer { leases.isRefreshing = true }
      return (leases.hasLeft, leases.isRefreshing)
    }
    if wasRefreshing {
      fatalError(
        "ClusterNode \"\(id)\": refreshLeases() was called while another round ran; "
          + "rounds of one node must not overlap (run() does them one at a time).")
    }
    defer { leases.withLock { $0.isRefreshing = false } }
    if isLeft { throw ClusterError.left(nodeID: id) }

    var changes = ShardLeaseChanges()
    // Taken before the renewal is sent: the database's lease runs from a
    // later instant, so the node's count of it never outlives it.
    let renewalSent = ContinuousClock.now
    let lease = Double(settings.leaseMilliseconds)
    try await client.query(
      """
      INSERT INTO \(unescaped: tables.members) (node_id, expires_at)
      VALUES (\(id), now() + \(lease) * interval '1 millisecond')
      ON CONFLICT (node_id) DO UPDATE SET expires_at = EXCLUDED.expires_at
      """, logger: logger)
    var held = Set(
      try await shards(
        """
        UPDATE \(unescaped: tables.shards) SET expires_at = now() + \(lease) * interval '1 millisecond'
        WHERE owner = \(id) AND expires_at > now() RETURNING shard
        """))
    let before = leases.withLock { $0.renewed(held, until: renewalSent + settings.leaseDuration) }
    changes.lost = before.subtracting(held).sorted()
    if !changes.lost.isEmpty {
      logger.warning("cluster node lost shards whose leases expired", metadata: ["shards": "\(changes.lost)"])
      await handOver(changes.lost)
    }

    var members: [String] = []
    for try await member in try await client.query(
      "SELECT node_id FROM \(unescaped: tables.members) WHERE expires_at > now() ORDER BY node_id",
      logger: logger
    ).decode(String.self) {
      members.append(member)
    }
    self.members.withLock { $0 = Set(members) }
    let target = FairShare.target(of: id, liveMembers: members, shardCount: settings.shardCount)
    if held.count > target {
      // The highest shards go, so that a node keeps the same ones while the membership stays.
      let extra = Array(held.sorted().suffix(held.count - target))
      leases.withLock { $0.releasing(extra) }
      await handOver(extra)
      try await client.query(
        """
        UPDATE \(unescaped: tables.shards) SET owner = NULL, expires_at = now()
        WHERE owner = \(id) AND shard = ANY(\(extra))
        """, logger: logger)
      held.subtract(extra)
      changes.released = extra
    } else if held.count < target {
      // SKIP LOCKED: two nodes claiming at once take different shards
      // rather than wait for each other; the row's condition is checked
      // again on the locked row, so a lease renewed meanwhile is kept.
      let claimed = try await shards(
        """
        UPDATE \(unescaped: tables.shards) SET owner = \(id), epoch = epoch + 1,
          expires_at = now() + \(lease) * interval '1 millisecond'
        WHERE shard IN (
          SELECT shard FROM \(unescaped: tables.shards)
          WHERE owner IS NULL OR expires_at <= now()
          ORDER BY shard LIMIT \(target - held.count)
          FOR UPDATE SKIP LOCKED)
        RETURNING shard
        """)
      leases.withLock { $0.claimed(claimed, until: renewalSent + settings.leaseDuration) }
      changes.claimed = claimed.sorted()
      if !claimed.isEmpty {
        for handler in takeOvers.withLock({ $0 }) { handler(changes.claimed) }
      }
    }
    return changes
  }

  /// Refreshes the leases every ``ClusterSettings/renewalInterval`` until
  /// the calling task is cancelled or the node leaves. A round that fails
  /// (the database is unreachable) is logged, and the next one tries again;
  /// meanwhile the node's leases run out by its own clock.
  ///
  /// The node is a swift-service-lifecycle `Service`: run in a
  /// `ServiceGroup`, a graceful shutdown (SIGTERM, with
  /// `gracefulShutdownSignals: [.sigterm]`) ends the rounds and leaves the
  /// cluster (``leave()``), so that the other nodes take its shards at their
  /// next round instead of waiting for its leases to expire. List the node
  /// before its hosts: a group shuts its services down in reverse order, so
  /// the hosts stop their systems first.
  ///
  /// ```swift
  /// let leases = Task { await node.run() }
  /// // or, handing the shards over on SIGTERM:
  /// let group = ServiceGroup(services: [node, carts], gracefulShutdownSignals: [.sigterm], logger: logger)
  /// try await group.run()
  /// ```
  public func run() async {
    await cancelWhenGracefulShutdown { await self.renewUntilCancelled() }
    guard Task.isShuttingDownGracefully else { return }
    do {
      try await leave()
    } catch {
      logger.error("cluster node could not hand its shards over as it shut down", metadata: ["error": "\(error)"])
    }
  }

  private func renewUntilCancelled() async {
    while !Task.isCancelled {
      do {
        try await refreshLeases()
      } catch ClusterError.left {
        return
      } catch {
        logger.error("cluster node could not renew its leases", metadata: ["error": "\(error)"])
      }
      do {
        try await Task.sleep(for: settings.renewalInterval)
      } catch {
        return
      }
    }
  }

  /// Leaves the cluster: frees the node's shards and its membership at
  /// once, so that the other nodes claim them at their next round instead
  /// of waiting for the leases to expire. Cancel ``run()`` first.
  ///
  /// ```swift
  /// leases.cancel()
  /// try await node.leave()
  /// ```
  public func leave() async throws {
    let held = leases.withLock { leases in
      defer { leases.leave() }
      return leases.held
    }
    await handOver(held.sorted())
    try await client.query(
      "UPDATE \(unescaped: tables.shards) SET owner = NULL, expires_at = now() WHERE owner = \(id)",
      logger: logger)
    try await client.query("DELETE FROM \(unescaped: tables.members) WHERE node_id = \(id)", logger: logger)
  }

  /// Calls `handler` with the shards the node is about to give up (or
  /// has lost), before it tells the database.
  func whenShardsGo(_ handler: @escaping @Sendable ([Int]) async -> Void) {
    handOvers.withLock { $0.append(handler) }
  }

  /// Calls `handler` with the shards the node has just claimed; it must
  /// return at once (start its work in a task): the lease round waits.
  func whenShardsCome(_ handler: @escaping @Sendable ([Int]) -> Void) {
    takeOvers.withLock { $0.append(handler) }
  }

  private func handOver(_ shards: [Int]) async {
    guard !shards.isEmpty else { return }
    for handler in handOvers.withLock({ $0 }) { await handler(shards) }
  }

  private func shards(_ query: PostgresQuery) async throws -> [Int] {
    var shards: [Int] = []
    for try await shard in try await client.query(query, logger: logger).decode(Int32.self) {
      shards.append(Int(shard))
    }
    return shards
  }
}
