import Foundation
import PostgresNIO
import Testing

@testable import FeedbackLoopCluster

@Suite("Cluster nodes and shard leases")
struct ClusterNodeTests {
  private func settings(shards: Int = 8, lease: Duration = .seconds(30)) -> ClusterSettings {
    ClusterSettings(shardCount: shards, leaseDuration: lease, tablePrefix: TestServer.newTablePrefix())
  }

  @Test("a lone node holds every shard, and owns every id")
  func loneNode() async throws {
    let settings = settings()
    try await TestServer.shared.withClients(1) { clients in
      let node = try await ClusterNode.join(client: clients[0], nodeID: "a", settings: settings)
      #expect(node.ownedShards == Array(0..<8))
      #expect(node.owns("cart-42"))
      #expect(try await node.refreshLeases().isEmpty)
      #expect(
        try await shardOwners(clients[0], settings) == Dictionary(uniqueKeysWithValues: (0..<8).map { ($0, "a") }))
    }
  }

  @Test("nodes that join share the shards fairly, each shard held by one")
  func joiningNodesShare() async throws {
    let settings = settings()
    try await TestServer.shared.withClients(3) { clients in
      let a = try await ClusterNode.join(client: clients[0], nodeID: "a", settings: settings)
      let b = try await ClusterNode.join(client: clients[1], nodeID: "b", settings: settings)
      // b's share is 4, and a holds them all: nothing is free yet.
      #expect(b.ownedShards == [])
      #expect(try await a.refreshLeases().released == [4, 5, 6, 7])
      #expect(try await b.refreshLeases().claimed == [4, 5, 6, 7])
      let c = try await ClusterNode.join(client: clients[2], nodeID: "c", settings: settings)
      for _ in 0..<2 {
        for node in [a, b, c] { try await node.refreshLeases() }
      }
      let owned = [a, b, c].map(\.ownedShards)
      #expect(owned.map(\.count) == [3, 3, 2])
      #expect(Set(owned.flatMap { $0 }).count == 8)
      var expected: [Int: String] = [:]
      for (node, shards) in zip([a, b, c], owned) { for shard in shards { expected[shard] = node.id } }
      #expect(try await shardOwners(clients[0], settings) == expected)
    }
  }

  @Test("a node that leaves hands its shards over at once, without waiting for its leases")
  func leavingHandsOver() async throws {
    let settings = settings()
    try await TestServer.shared.withClients(2) { clients in
      let a = try await ClusterNode.join(client: clients[0], nodeID: "a", settings: settings)
      let b = try await ClusterNode.join(client: clients[1], nodeID: "b", settings: settings)
      try await a.refreshLeases()
      try await b.refreshLeases()
      #expect(a.ownedShards == [0, 1, 2, 3])
      try await a.leave()
      #expect(a.ownedShards == [])
      #expect(try await b.refreshLeases().claimed == [0, 1, 2, 3])
      #expect(b.ownedShards == Array(0..<8))
      await #expect(throws: ClusterError.self) { try await a.refreshLeases() }
    }
  }

  // The one wait for real time: a lease expires on the database's clock
  // (`now()`), which no test clock drives. A lease of one second keeps it short.
  @Test(
    "a node that stops renewing loses its shards to a live node once its leases expire, and stops counting them first")
  func expiredLeasesTakenOver() async throws {
    let settings = settings(lease: .seconds(1))
    try await TestServer.shared.withClients(2) { clients in
      let a = try await ClusterNode.join(client: clients[0], nodeID: "a", settings: settings)
      let b = try await ClusterNode.join(client: clients[1], nodeID: "b", settings: settings)
      #expect(try await b.refreshLeases().claimed == [])
      let epochsBefore = try await epochs(clients[1], settings)
      // a is paused: it renews nothing for longer than its lease.
      try await Task.sleep(for: .milliseconds(1_300))
      #expect(a.ownedShards == [], "a's own clock ends its leases before the database can give them away")
      #expect(try await b.refreshLeases().claimed == Array(0..<8))
      #expect(b.ownedShards == Array(0..<8))
      // a wakes up: its renewal finds every lease gone, and it claims none back.
      let woken = try await a.refreshLeases()
      #expect(woken.lost == Array(0..<8))
      #expect(woken.claimed == [])
      #expect(a.ownedShards == [])
      // Each takeover is a new epoch of the shard's lease.
      let epochsAfter = try await epochs(clients[1], settings)
      #expect(epochsAfter.keys.sorted() == Array(0..<8))
      #expect(epochsAfter.allSatisfy { shard, epoch in epoch == epochsBefore[shard]! + 1 })
      // b gives a its share back at b's next round, and a claims it.
      #expect(try await b.refreshLeases().released == [4, 5, 6, 7])
      #expect(try await a.refreshLeases().claimed == [4, 5, 6, 7])
    }
  }

  @Test("nodes claiming at the same moment never hold one shard twice")
  func concurrentClaims() async throws {
    let settings = settings(shards: 16)
    try await TestServer.shared.withClients(4) { clients in
      let nodes = try await withThrowingTaskGroup(of: ClusterNode.self) { group in
        for (index, client) in clients.enumerated() {
          group.addTask { try await ClusterNode.join(client: client, nodeID: "n\(index)", settings: settings) }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      for _ in 0..<3 {
        try await withThrowingTaskGroup(of: Void.self) { group in
          for node in nodes { group.addTask { try await node.refreshLeases() } }
          try await group.waitForAll()
        }
        let owned = nodes.flatMap(\.ownedShards)
        #expect(owned.count == Set(owned).count, "a shard counted by two nodes: \(nodes.map(\.ownedShards))")
      }
      // Settled: every shard held, four each.
      for node in nodes { try await node.refreshLeases() }
      for node in nodes { try await node.refreshLeases() }
      #expect(nodes.map(\.ownedShards.count) == [4, 4, 4, 4])
    }
  }

  @Test("a node given another shard count than the cluster's tables refuses to join")
  func shardCountMismatch() async throws {
    let settings = settings()
    let other = ClusterSettings(
      shardCount: 16, leaseDuration: settings.leaseDuration, tablePrefix: settings.tablePrefix)
    try await TestServer.shared.withClients(1) { clients in
      _ = try await ClusterNode.join(client: clients[0], nodeID: "a", settings: settings)
      await #expect(throws: ClusterError.self) {
        try await ClusterNode.join(client: clients[0], nodeID: "b", settings: other)
      }
    }
  }

  private func epochs(_ client: PostgresClient, _ settings: ClusterSettings) async throws -> [Int: Int64] {
    var epochs: [Int: Int64] = [:]
    for try await (shard, epoch) in try await client.query(
      "SELECT shard, epoch FROM \(unescaped: ClusterTables(prefix: settings.tablePrefix).shards)",
      logger: .init(label: "test")
    ).decode((Int32, Int64).self) {
      epochs[Int(shard)] = epoch
    }
    return epochs
  }
}
