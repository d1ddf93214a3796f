import FeedbackLoopDurable
import FeedbackLoopPostgreSQL
import Foundation
import Logging
import PostgresNIO
import Testing

@testable import FeedbackLoopCluster

/// Nodes as processes of their own (`cluster-node`), one killed with SIGKILL
/// while it sends and delivers; the checker folds the journal and compares
/// it with the acknowledged events. Seeded, the seed printed
/// (`FEEDBACKLOOP_CLUSTER_SEED` replays one).
@Suite("Failover with real processes")
struct FailoverTests {
  @Test(
    "G2 a node killed with SIGKILL, another paused past its lease, a third added: every acknowledged event reduced once, in its sender's order"
  )
  func killedNodeTakenOver() async throws {
    let seed =
      ProcessInfo.processInfo.environment["FEEDBACKLOOP_CLUSTER_SEED"].flatMap(UInt64.init)
      ?? UInt64.random(in: 1...999_999)
    var random = SeededGenerator(state: seed)
    let killAfter = Int.random(in: 10...40, using: &random)
    let pauseAfter = Int.random(in: 30...90, using: &random)
    print(
      "[cluster failover] seed \(seed): node 1 killed after \(killAfter) acknowledged events, "
        + "node 2 paused for 1.5 s (its lease is 1 s) after \(pauseAfter), node 3 added after the kill")
    let settings = ClusterSettings(shardCount: 8, leaseDuration: .seconds(1), tablePrefix: TestServer.newTablePrefix())
    let journalPrefix = TestServer.newTablePrefix()
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("feedbackloop-cluster-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let server = TestServer.shared
    // The tables first, so that the two nodes do not both make them.
    try await server.withClients(1) { clients in
      try await ClusterNode.join(client: clients[0], nodeID: "setup", settings: settings).leave()
    }
    let count = 150
    func start(_ number: Int) throws -> (pid: pid_t, acks: String) {
      let acks = "\(directory)/acks-\(number)"
      let pid = try spawn(
        try executable("cluster-node"),
        [
          "\(server.port)", settings.tablePrefix, journalPrefix, "\(number)", "1000", "\(seed)", "12", "\(count)",
          acks,
        ])
      return (pid, acks)
    }
    let one = try start(1)
    let two = try start(2)
    var three: (pid: pid_t, acks: String)?
    defer {
      for pid in [one.pid, two.pid, three?.pid].compactMap({ $0 }) {
        kill(pid, SIGCONT)
        kill(pid, SIGKILL)
        waitpid(pid, nil, 0)
      }
    }
    // Bounded waits for real processes: for the kill's moment, then for the survivor.
    #expect(
      try await eventually(seconds: 60) { try lines(one.acks).count >= killAfter },
      "node 1 never acknowledged \(killAfter) events")
    kill(one.pid, SIGKILL)
    three = try start(3)
    let added = try #require(three)
    let reached = try await eventually(seconds: 60) { try lines(two.acks).count >= pauseAfter }
    #expect(reached, "node 2 never acknowledged \(pauseAfter) events")
    kill(two.pid, SIGSTOP)
    try await Task.sleep(for: .milliseconds(1_500))
    kill(two.pid, SIGCONT)
    for node in [two, added] {
      let finished = try await eventually(seconds: 60) { try lines(node.acks).last == "done" }
      #expect(finished, "a node did not finish: \((try? lines(node.acks).suffix(3)) ?? [])")
    }
    let inbox = Inbox(prefix: settings.tablePrefix)
    let logger = Logger(label: "test")
    try await server.withClients(1) { clients in
      let empty = try await eventually(seconds: 30) {
        try await clients[0].query("SELECT count(*) FROM \(unescaped: inbox.table)", logger: logger)
          .collect().first!.decode(Int64.self) == 0
      }
      #expect(empty, "the survivor did not deliver the inbox of the killed node's shards")
      let owners = try await shardOwners(clients[0], settings)
      #expect(owners.count == 8 && !owners.values.contains { $0.hasPrefix("node1-") }, "\(owners)")
      #expect(owners.values.contains { $0.hasPrefix("node3-") }, "the added node holds no shard: \(owners)")
      for node in [two, added] {
        kill(node.pid, SIGKILL)
        waitpid(node.pid, nil, 0)
      }
      let (acked, reduced) = try await checkJournal(
        client: clients[0], journalPrefix: journalPrefix, acks: [one.acks, two.acks, added.acks])
      print(
        "[cluster failover] seed \(seed): \(acked) acknowledged, \(reduced) reduced (the killed node's one unacknowledged event may be stored)"
      )
      #expect(reduced >= acked && reduced <= acked + 1)
    }
  }

  @Test("a node process stopped with SIGTERM hands its shards over at once, without waiting for its leases to expire")
  func terminatedNodeHandsOver() async throws {
    // A lease of 6 seconds: released leases are gone at once, expiring ones live on for seconds.
    let settings = ClusterSettings(shardCount: 8, leaseDuration: .seconds(6), tablePrefix: TestServer.newTablePrefix())
    let journalPrefix = TestServer.newTablePrefix()
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("feedbackloop-cluster-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let server = TestServer.shared
    try await server.withClients(1) { clients in
      try await ClusterNode.join(client: clients[0], nodeID: "setup", settings: settings).leave()
    }
    func start(_ number: Int) throws -> (pid: pid_t, acks: String) {
      let acks = "\(directory)/acks-\(number)"
      let arguments = [
        "\(server.port)", settings.tablePrefix, journalPrefix, "\(number)", "6000", "7", "12", "60", acks,
      ]
      return (try spawn(try executable("cluster-node"), arguments), acks)
    }
    let one = try start(1)
    let two = try start(2)
    defer {
      for pid in [one.pid, two.pid] {
        kill(pid, SIGKILL)
        waitpid(pid, nil, 0)
      }
    }
    try await server.withClients(1) { clients in
      // Bounded waits for real processes: until both hold shards and node 1 is busy.
      let shared = try await eventually(seconds: 30) {
        let owners = try await shardOwners(clients[0], settings).values
        let busy = try lines(one.acks).count >= 20
        return busy && owners.contains { $0.hasPrefix("node1-") } && owners.contains { $0.hasPrefix("node2-") }
      }
      #expect(shared, "the two nodes never shared the shards")
      kill(one.pid, SIGTERM)
      let stopped = try await eventually(seconds: 20) { try lines(one.acks).last == "stopped" }
      #expect(stopped, "node 1 did not stop: \((try? lines(one.acks).suffix(3)) ?? [])")
      // Released, not left to expire: no live lease of node 1 remains.
      let owners = try await shardOwners(clients[0], settings)
      #expect(!owners.values.contains { $0.hasPrefix("node1-") }, "\(owners)")
      let finished = try await eventually(seconds: 60) { try lines(two.acks).last == "done" }
      #expect(finished, "node 2 did not finish")
      let inbox = Inbox(prefix: settings.tablePrefix)
      let empty = try await eventually(seconds: 30) {
        try await clients[0].query("SELECT count(*) FROM \(unescaped: inbox.table)", logger: Logger(label: "test"))
          .collect().first!.decode(Int64.self) == 0
      }
      #expect(empty, "node 2 did not deliver the inbox of node 1's shards")
      let (acked, reduced) = try await checkJournal(
        client: clients[0], journalPrefix: journalPrefix, acks: [one.acks, two.acks])
      // Node 1's load may have had one send in flight when it exited.
      #expect(reduced >= acked && reduced <= acked + 1)
    }
  }
}

/// The checker: each system restored from the journal alone holds every
/// acknowledged event once, each sender's in order. Returns how many were
/// acknowledged and how many reduced.
private func checkJournal(
  client: PostgresClient, journalPrefix: String, acks: [String]
) async throws -> (acknowledged: Int, reduced: Int) {
  var acknowledged: [String: [Int]] = [:]
  for path in acks {
    for line in try lines(path) where line.hasPrefix("ack ") {
      let words = line.split(separator: " ")
      acknowledged[String(words[1]), default: []].append(Int(words[2])!)
    }
  }
  let writer = JournalWriter(journal: try await PostgresJournal.open(client: client, tablePrefix: journalPrefix))
  var reduced = 0
  for id in (0..<12).map({ "s\($0)" }) {
    let system = try await DurableSystem.restore(
      id: id, writer: writer, initial: DeliveredState(state: [Int]()),
      reduce: { (delivered: inout DeliveredState<[Int]>, delivery: Delivery<Int>) in
        delivered.reduce(delivery) { log, value in log.append(value) }
      })
    let log = system.state.state
    system.stop()
    reduced += log.count
    #expect(Set(log).count == log.count, "\(id): an event reduced twice: \(log)")
    #expect(Set(acknowledged[id, default: []]).isSubset(of: Set(log)), "\(id): an acknowledged event lost")
    for sender in 1...3 {
      let sent = log.filter { $0 / 1_000_000 == sender }
      #expect(sent == sent.sorted(), "\(id): sender \(sender)'s order broken: \(sent)")
    }
  }
  return (acknowledged.values.reduce(0) { $0 + $1.count }, reduced)
}

private func lines(_ path: String) throws -> [String] {
  guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
  // The last line is whole only once its newline is written.
  return text.split(separator: "\n", omittingEmptySubsequences: true).dropLast(text.hasSuffix("\n") ? 0 : 1)
    .map(String.init)
}

private func eventually(seconds: Int, _ condition: () async throws -> Bool) async throws -> Bool {
  let start = ContinuousClock.now
  while start.duration(to: .now) < .seconds(seconds) {
    if try await condition() { return true }
    try await Task.sleep(for: .milliseconds(20))
  }
  return try await condition()
}

private func executable(_ name: String) throws -> String {
  let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
  var candidates = [Bundle.main.bundleURL, testBinary.deletingLastPathComponent()]
  for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
    candidates.append(bundle.bundleURL.deletingLastPathComponent())
  }
  for directory in candidates {
    let candidate = directory.appendingPathComponent(name).path
    if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
  }
  throw ServerError(message: "\(name) is not beside the tests (looked in \(candidates.map(\.path)))")
}

/// Starts `executable` with its output thrown away (it reports in its acks file).
private func spawn(_ executable: String, _ arguments: [String]) throws -> pid_t {
  let words = [executable] + arguments
  let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
  defer { argv.forEach { free($0) } }
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
  var pid = pid_t()
  let result = posix_spawn(&pid, executable, &actions, nil, argv, environ)
  guard result == 0 else { throw ServerError(message: "could not start \(executable): \(result)") }
  return pid
}

/// SplitMix64, as the nodes use.
private struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9e37_79b9_7f4a_7c15
    var z = state
    z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
    z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
    return z ^ (z >> 31)
  }
}
