// A cluster node for the failover test: joins the cluster, delivers the
// inbox of its shards, and sends `count` events to ids picked by a seeded
// generator, appending "ack <id> <value>" to the acks file once each is
// acknowledged. Then it keeps serving until it is killed; on SIGTERM it
// stops its systems, hands its shards over, writes "stopped" and exits.
// Its journal's claims and appends go to ACKS_FILE.journal
// (RecordingJournal), for the checker.
//
// EFFECTS (optional, "none" by default) gives the systems a feedback: each
// positive event is a request, whose effect records a call with its key
// (the request) in the table TABLE_PREFIX + "effect_calls", made by the
// test, and then either answers with the request negated ("complete") or
// never answers ("stall": its effects are in flight when it is killed).
//
//   cluster-node PORT TABLE_PREFIX JOURNAL_PREFIX NODE_NUMBER LEASE_MS SEED IDS COUNT ACKS_FILE [EFFECTS]
import FeedbackLoop
import FeedbackLoopCluster
import FeedbackLoopDurable
import FeedbackLoopPostgreSQL
import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle

let arguments = CommandLine.arguments
guard arguments.count == 10 || arguments.count == 11, let port = Int(arguments[1]), let nodeNumber = Int(arguments[4]),
  let leaseMilliseconds = Int(arguments[5]), let seed = UInt64(arguments[6]), let idCount = Int(arguments[7]),
  let count = Int(arguments[8])
else {
  fatalError(
    "usage: cluster-node PORT TABLE_PREFIX JOURNAL_PREFIX NODE_NUMBER LEASE_MS SEED IDS COUNT ACKS_FILE [EFFECTS]")
}
let (tablePrefix, journalPrefix, acksPath) = (arguments[2], arguments[3], arguments[9])
let effects = arguments.count == 11 ? arguments[10] : "none"
guard ["none", "complete", "stall"].contains(effects) else {
  fatalError("cluster-node: EFFECTS is none, complete or stall, not \(effects)")
}

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
let journalRecord = open(acksPath + ".journal", O_WRONLY | O_CREAT | O_APPEND, 0o644)
func appendLine(_ line: String) { writeLine(line, to: acks) }

/// The requests of a log without their answers (a request negated).
func pendingRequests(_ log: [Int]) -> Set<Int> {
  Set(log.filter { $0 > 0 }).subtracting(log.filter { $0 < 0 }.map { -$0 })
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
      let journal = RecordingJournal(
        base: try await PostgresJournal.open(client: client, tablePrefix: journalPrefix), node: nodeNumber,
        record: { [journalRecord] in writeLine($0, to: journalRecord) })
      let calls = tablePrefix + "effect_calls"
      let feedbacks: [LiftableFeedback<[Int], Int>] =
        effects == "none"
        ? []
        : [
          .requests(pendingRequests) { key in
            .task {
              // Called until the service answers, as an effect with an idempotency key may be.
              while true {
                do {
                  try await client.query(
                    "INSERT INTO \(unescaped: calls) (key, node) VALUES (\(key), \(nodeNumber))",
                    logger: Logger(label: "cluster-node"))
                  break
                } catch {
                  try await Task.sleep(for: .milliseconds(50))
                }
              }
              if effects == "stall" { try await Task.sleep(for: .seconds(3_600)) }
              return -key
            }
          }
        ]
      let host = try await ClusterHost<[Int], Int>(
        node: node, client: client, writer: JournalWriter(journal: journal), initial: [],
        reduce: { log, value in log.append(value) }, feedbacks: feedbacks)
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
