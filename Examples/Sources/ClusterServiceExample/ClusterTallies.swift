import FeedbackLoopCluster
import PostgresNIO

/// The tallies of a cluster node: a `ClusterHost` of ``Tally`` systems,
/// and the addresses of the other nodes for the reads it does not own.
///
/// ```swift
/// let host = try await ClusterHost<Tally, TallyEvent>(
///   node: node, client: client, writer: JournalWriter(journal: journal),
///   initial: Tally(), reduce: Tally.reduce, feedbacks: Tally.feedbacks { _, _ in })
/// let tallies = ClusterTallies(host: host, client: client, addresses: NodeAddresses(tablePrefix: "tally_"),
///   baseURL: "http://127.0.0.1:8081")
/// let routes = TallyRoutes(directory: tallies, forwarding: HTTPTallyForwarding())
/// ```
public struct ClusterTallies: TallyDirectory {
  public let host: ClusterHost<Tally, TallyEvent>
  private let client: PostgresClient
  private let addresses: NodeAddresses
  /// This node's own HTTP address, as registered in `addresses`.
  public let baseURL: String

  public init(
    host: ClusterHost<Tally, TallyEvent>, client: PostgresClient, addresses: NodeAddresses, baseURL: String
  ) {
    self.host = host
    self.client = client
    self.addresses = addresses
    self.baseURL = baseURL
  }

  public var nodeID: String { host.node.id }

  public func send(_ event: TallyEvent, to id: String) async throws {
    try await host.send(event, to: id)
  }

  public func lookUp(_ id: String) async throws -> TallyLookup {
    if let tally = try await host.state(of: id) { return .here(tally) }
    let shard = host.node.shardMap.shard(of: id)
    guard let owner = try await addresses.owner(ofShard: shard, on: client) else { return .unowned }
    // The database may still name this node for a lease its own clock
    // counts as gone: asking itself would loop.
    return owner == baseURL ? .unowned : .elsewhere(baseURL: owner)
  }

  public func health() async -> NodeHealth {
    NodeHealth(node: host.node.id, ownedShards: host.node.ownedShards, loadedSystems: host.loadedIDs.count)
  }
}
