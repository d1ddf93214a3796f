// The workloads S1–S3 and their helpers (main.swift runs them).
import FeedbackLoopCluster
import FeedbackLoopDurable
import FeedbackLoopPostgreSQL
import Foundation
import Logging
import NIOCore
import PostgresNIO

let (idCount, eventCount, senderCount) = (200, 3_000, 32)
let s2Samples = 300
let s3Trials = 5
let s3LeaseMilliseconds = 2_000
let logger = Logger(label: "cluster-benchmarks")

/// The server's port, the program's first argument (main.swift checks it).
let port = Int(CommandLine.arguments[1])!

let configuration: PostgresClient.Configuration = {
  var configuration = PostgresClient.Configuration(
    host: "127.0.0.1", port: port, username: "feedbackloop", password: nil, database: "postgres", tls: .disable)
  configuration.options.connectTimeout = .seconds(5)
  return configuration
}()

func newPrefix() -> String { "b\(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""))_" }

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
func percentile(_ values: [Double], _ p: Double) -> Double {
  let sorted = values.sorted()
  return sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)]
}
func seconds(_ duration: Duration) -> Double {
  Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// Runs `body` with `count` running clients of their own.
func withClients<Result: Sendable>(
  _ count: Int, _ body: @escaping @Sendable ([PostgresClient]) async throws -> Result
) async throws -> Result {
  let clients = (0..<count).map { _ in PostgresClient(configuration: configuration, backgroundLogger: logger) }
  return try await withThrowingTaskGroup(of: Result?.self) { group in
    for client in clients {
      group.addTask {
        await client.run()
        return nil
      }
    }
    group.addTask { try await body(clients) }
    defer { group.cancelAll() }
    while let result = try await group.next() {
      if let result { return result }
    }
    fatalError("the clients stopped")
  }
}

/// The id the `index`-th event of sender `sender` goes to.
func target(sender: Int, index: Int) -> String { "s\((sender * 7 + index) % idCount)" }

// MARK: - S1

/// Durable systems on the journal alone: each event acknowledged once stored.
func journalAlone() async throws -> Double {
  try await withClients(1) { clients in
    let journal = try await PostgresJournal.open(client: clients[0], tablePrefix: newPrefix())
    let writer = JournalWriter(journal: journal)
    let host = DurableHost<Int, Int> { id in
      try await DurableSystem.restore(id: id, writer: writer, initial: 0, reduce: { count, step in count += step })
    }
    let start = ContinuousClock.now
    try await withThrowingTaskGroup(of: Void.self) { group in
      for sender in 0..<senderCount {
        group.addTask {
          for index in 0..<(eventCount / senderCount) {
            try await host.sendDurably(1, to: target(sender: sender, index: index))
          }
        }
      }
      try await group.waitForAll()
    }
    let elapsed = seconds(start.duration(to: .now))
    await host.stop()
    return Double(eventCount / senderCount * senderCount) / elapsed
  }
}

/// A node per client, each hosting counters on one journal, at its share of
/// the shards and running: what S1 and S2 measure through.
struct BenchmarkCluster {
  let settings: ClusterSettings
  let nodes: [ClusterNode]
  let hosts: [ClusterHost<Int, Int>]
  let tasks: [Task<Void, Never>]

  static func start(clients: [PostgresClient]) async throws -> BenchmarkCluster {
    let settings = ClusterSettings(shardCount: 64, leaseDuration: .seconds(10), tablePrefix: newPrefix())
    let journalPrefix = newPrefix()
    var hosts: [ClusterHost<Int, Int>] = []
    var nodes: [ClusterNode] = []
    for (number, client) in clients.enumerated() {
      let node = try await ClusterNode.join(client: client, nodeID: "node\(number)", settings: settings)
      let journal = try await PostgresJournal.open(client: client, tablePrefix: journalPrefix)
      nodes.append(node)
      hosts.append(
        try await ClusterHost(
          node: node, client: client, writer: JournalWriter(journal: journal), initial: 0,
          reduce: { count, step in count += step }))
    }
    // Every node at its share before the clock starts.
    for _ in 0..<3 { for node in nodes { try await node.refreshLeases() } }
    let tasks = hosts.map { host in Task { await host.run() } } + nodes.map { node in Task { await node.run() } }
    return BenchmarkCluster(settings: settings, nodes: nodes, hosts: hosts, tasks: tasks)
  }

  func stop() async {
    for task in tasks { task.cancel() }
    for task in tasks { await task.value }
    for host in hosts { await host.stop() }
  }
}

/// The same load through a cluster of `nodeCount` nodes, the senders spread
/// over them; done when the inbox is empty again.
func throughCluster(nodes nodeCount: Int) async throws -> Double {
  try await withClients(nodeCount) { clients in
    let cluster = try await BenchmarkCluster.start(clients: clients)
    let (settings, hosts) = (cluster.settings, cluster.hosts)
    let start = ContinuousClock.now
    try await withThrowingTaskGroup(of: Void.self) { group in
      for sender in 0..<senderCount {
        let host = hosts[sender % nodeCount]
        group.addTask {
          for index in 0..<(eventCount / senderCount) {
            try await host.send(1, to: target(sender: sender, index: index))
          }
        }
      }
      try await group.waitForAll()
    }
    while try await clients[0].query("SELECT count(*) FROM \(unescaped: settings.tablePrefix)inbox", logger: logger)
      .collect().first!.decode(Int64.self) > 0
    {
      try await Task.sleep(for: .milliseconds(2))
    }
    let elapsed = seconds(start.duration(to: .now))
    var total = 0
    for id in Set(
      (0..<senderCount).flatMap { sender in (0..<(eventCount / senderCount)).map { target(sender: sender, index: $0) } }
    ) {
      for host in hosts { total += try await host.state(of: id) ?? 0 }
    }
    precondition(total == eventCount / senderCount * senderCount, "S1: \(total) events reduced")
    await cluster.stop()
    return Double(total) / elapsed
  }
}

// MARK: - S2

func latencies() async throws -> (local: [Double], remote: [Double]) {
  try await withClients(2) { clients in
    let cluster = try await BenchmarkCluster.start(clients: clients)
    let (nodes, hosts) = (cluster.nodes, cluster.hosts)
    let local = (0...).lazy.map { "l\($0)" }.first { nodes[0].owns($0) }!
    let remote = (0...).lazy.map { "r\($0)" }.first { nodes[1].owns($0) }!
    try await Task.sleep(for: .seconds(1))  // the LISTENs
    var (localTimes, remoteTimes): ([Double], [Double]) = ([], [])
    for sample in 0..<(2 * s2Samples) {
      let (id, owner) = sample % 2 == 0 ? (local, hosts[0]) : (remote, hosts[1])
      let before = try await owner.state(of: id) ?? 0
      let start = ContinuousClock.now
      try await hosts[0].send(1, to: id)
      while try await owner.state(of: id) ?? 0 == before {
        try await Task.sleep(for: .microseconds(50))
      }
      let elapsed = seconds(start.duration(to: .now)) * 1_000
      if sample % 2 == 0 { localTimes.append(elapsed) } else { remoteTimes.append(elapsed) }
    }
    await cluster.stop()
    return (localTimes, remoteTimes)
  }
}

// MARK: - S3

func spawn(_ executable: String, _ arguments: [String]) -> pid_t {
  let words = [executable] + arguments
  let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
  defer { argv.forEach { free($0) } }
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
  var pid = pid_t()
  guard posix_spawn(&pid, executable, &actions, nil, argv, environ) == 0 else {
    fatalError("could not start \(executable)")
  }
  return pid
}

func failover(trial: Int) async throws -> Double {
  let node = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    .appendingPathComponent("cluster-node").path
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cluster-s3-\(UUID())").path
  try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(atPath: directory) }
  let settings = ClusterSettings(
    shardCount: 8, leaseDuration: .milliseconds(s3LeaseMilliseconds), tablePrefix: newPrefix())
  let journalPrefix = newPrefix()
  return try await withClients(1) { clients in
    let client = clients[0]
    try await ClusterNode.join(client: client, nodeID: "setup", settings: settings).leave()
    _ = try await PostgresJournal.open(client: client, tablePrefix: journalPrefix)
    let pids = (1...2).map { number in
      spawn(
        node,
        [
          "\(port)", settings.tablePrefix, journalPrefix, "\(number)", "\(s3LeaseMilliseconds)", "\(trial)", "4", "1",
          "\(directory)/acks-\(number)",
        ])
    }
    defer {
      for pid in pids {
        kill(pid, SIGKILL)
        waitpid(pid, nil, 0)
      }
    }
    // Until both nodes have sent their one event (their inbox exists) and hold their share.
    while (1...2).contains(where: { number in
      let text = (try? String(contentsOfFile: "\(directory)/acks-\(number)", encoding: .utf8)) ?? ""
      return !text.contains("done")
    }) {
      try await Task.sleep(for: .milliseconds(20))
    }
    var ownersOfOne: [Int] = []
    while true {
      var owners: [Int: String] = [:]
      for try await (shard, owner) in try await client.query(
        "SELECT shard, owner FROM \(unescaped: settings.tablePrefix)shards WHERE owner IS NOT NULL AND expires_at > now()",
        logger: logger
      ).decode((Int32, String).self) {
        owners[Int(shard)] = owner
      }
      ownersOfOne = owners.filter { $0.value.hasPrefix("node1-") }.map(\.key)
      if ownersOfOne.count == 4 && owners.count == 8 { break }
      try await Task.sleep(for: .milliseconds(20))
    }
    let shardMap = ShardMap(shardCount: 8)
    let id = (0...).lazy.map { "f\($0)" }.first { ownersOfOne.contains(shardMap.shard(of: $0)) }!
    let payload = ByteBuffer(bytes: Array(try JSONEncoder().encode(1)))
    kill(pids[0], SIGKILL)
    let killed = ContinuousClock.now
    try await client.query(
      """
      INSERT INTO \(unescaped: settings.tablePrefix)inbox (shard, target, sender, sender_sequence, payload)
      VALUES (\(Int32(shardMap.shard(of: id))), \(id), 'bench', 1, \(payload))
      """, logger: logger)
    while try await client.query(
      "SELECT count(*) FROM \(unescaped: journalPrefix)events WHERE system_id = \(id)", logger: logger
    ).collect().first!.decode(Int64.self) == 0 {
      try await Task.sleep(for: .milliseconds(2))
      if killed.duration(to: .now) > .seconds(60) { fatalError("S3: the event was never stored") }
    }
    return seconds(killed.duration(to: .now))
  }
}

/// Writes `line` at once (unbuffered), so that a later failure loses no result.
func report(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
