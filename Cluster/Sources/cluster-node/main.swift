// A cluster node for the failover test: joins the cluster, delivers the
// inbox of its shards, and sends `count` events to ids picked by a seeded
// generator, appending "ack <id> <value>" to the acks file once each is
// acknowledged. Then it keeps serving until it is killed; on SIGTERM it
// stops its systems, hands its shards over, writes "stopped" and exits.
//
//   cluster-node PORT TABLE_PREFIX JOURNAL_PREFIX NODE_NUMBER LEASE_MS SEED IDS COUNT ACKS_FILE
import FeedbackLoopCluster
import FeedbackLoopDurable
import FeedbackLoopPostgreSQL
import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle

let arguments = CommandLine.arguments
guard arguments.count == 10, let port = Int(arguments[1]), let nodeNumber = Int(arguments[4]),
  let leaseMilliseconds = Int(arguments[5]), let seed = UInt64(arguments[6]), let idCount = Int(arguments[7]),
  let count = Int(arguments[8])
else {
  fatalError("usage: cluster-node PORT TABLE_PREFIX JOURNAL_PREFIX NODE_NUMBER LEASE_MS SEED IDS COUNT ACKS_FILE")
}
let (tablePrefix, journalPrefix, acksPath) = (arguments[2], arguments[3], arguments[9])

/// SplitMix64: the same ids for the same seed.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9e37_79b9_7f4a_7c15
    var z = state
    z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
    z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
    return z ^ (z >> 31)
  }
}

/// Appends whole lines with write(2), so that a line acknowledged before a
/// SIGKILL is in the file.
let acks = open(acksPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
func appendLine(_ line: String) {
  let bytes = Array((line + "\n").utf8)
  _ = bytes.withUnsafeBytes { write(acks, $0.baseAddress, $0.count) }
}

var configuration = PostgresClient.Configuration(
  host: "127.0.0.1", port: port, username: "feedbackloop", password: nil, database: "postgres", tls: .disable)
configuration.options.connectTimeout = .seconds(2)
let client = PostgresClient(configuration: configuration, backgroundLogger: Logger(label: "cluster-node"))
let settings = ClusterSettings(
  shardCount: 8, leaseDuration: .milliseconds(leaseMilliseconds), tablePrefix: tablePrefix)

await withTaskGroup(of: Void.self) { group in
  group.addTask { await client.run() }
  group.addTask {
    do {
      let node = try await ClusterNode.join(client: client, nodeID: "node\(nodeNumber)-\(UUID())", settings: settings)
      let journal = try await PostgresJournal.open(client: client, tablePrefix: journalPrefix)
      let host = try await ClusterHost<[Int], Int>(
        node: node, client: client, writer: JournalWriter(journal: journal), initial: [],
        reduce: { log, value in log.append(value) })
      let load = Task {
        var random = SeededGenerator(state: seed &+ UInt64(nodeNumber))
        for index in 1...count {
          let id = "s\(Int.random(in: 0..<idCount, using: &random))"
          let value = nodeNumber * 1_000_000 + index
          try await host.send(value, to: id)
          appendLine("ack \(id) \(value)")
        }
        appendLine("done")
      }
      // The node first: a group shuts its services down in reverse order.
      let services = ServiceGroup(
        services: [node, host], gracefulShutdownSignals: [.sigterm], logger: Logger(label: "cluster-node"))
      try await services.run()
      load.cancel()
      appendLine("stopped")
      exit(0)
    } catch {
      appendLine("failed \(error)")
      exit(1)
    }
  }
  await group.next()
}
