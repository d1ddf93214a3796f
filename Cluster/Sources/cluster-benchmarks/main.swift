// The cluster's workloads, against a PostgreSQL server given by its port
// (`Cluster/benchmark` starts one and runs this in release mode):
//
//   S1 events per second through the cluster, 1 node and 3 nodes (each with
//      a client of its own, in this process), against durable systems on the
//      journal alone, on the same server in the same run: SENDERS tasks send
//      EVENTS events over IDS ids; timed from the first send until every
//      event is stored in its system's journal (for the cluster: the inbox
//      is empty again).
//   S2 latency of one event, sent from node a, until it is reduced: to an id
//      that a owns, and to an id that b owns (p50 and p99, alternated).
//   S3 failover: two `cluster-node` processes, lease LEASE_MS; node 1 is
//      killed with SIGKILL and an event for one of its ids written to the
//      inbox at once; timed from the kill until that event is stored by the
//      new owner.
//
//   cluster-benchmarks PORT [ROUNDS]
import Foundation

let arguments = CommandLine.arguments
guard arguments.count >= 2, Int(arguments[1]) != nil else { fatalError("usage: cluster-benchmarks PORT [ROUNDS]") }
let rounds = arguments.count > 2 ? Int(arguments[2]) ?? 3 : 3

// MARK: - The runs

report("cluster benchmarks: \(rounds) rounds; S1 \(eventCount) events, \(senderCount) senders, \(idCount) ids")
var s1: [String: [Double]] = [:]
for round in 0..<rounds {
  // The order turns each round, so that none always runs on a warmer server.
  let order = [0, 1, 2].map { ($0 + round) % 3 }
  for kind in order {
    switch kind {
    case 0: s1["journal alone", default: []].append(try await journalAlone())
    case 1: s1["cluster, 1 node", default: []].append(try await throughCluster(nodes: 1))
    default: s1["cluster, 3 nodes", default: []].append(try await throughCluster(nodes: 3))
    }
  }
}
for (name, values) in s1.sorted(by: { $0.key < $1.key }) {
  report(
    "RESULT S1 \(name): median \(Int(median(values))) events/s (runs: \(values.map { String(Int($0)) }.joined(separator: ", ")))"
  )
}
let (local, remote) = try await latencies()
report(
  String(
    format: "RESULT S2 local id: p50 %.2f ms, p99 %.2f ms; remote id: p50 %.2f ms, p99 %.2f ms (%d samples each)",
    percentile(local, 0.5), percentile(local, 0.99), percentile(remote, 0.5), percentile(remote, 0.99), s2Samples))
var s3: [Double] = []
for trial in 1...s3Trials { s3.append(try await failover(trial: trial)) }
let trials = s3.map { String(format: "%.2f", $0) }.joined(separator: ", ")
report(
  String(
    format: "RESULT S3 failover after SIGKILL, lease %.1f s: median %.2f s, max %.2f s",
    Double(s3LeaseMilliseconds) / 1000, median(s3), s3.max()!) + " (trials: \(trials))")
