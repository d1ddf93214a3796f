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
      let appends = try await checkWriters(
        client: clients[0], journalPrefix: journalPrefix, acks: [one.acks, two.acks, added.acks])
      print(
        "[cluster failover] seed \(seed): \(acked) acknowledged, \(reduced) reduced (the killed node's one unacknowledged event may be stored), \(appends) appends, one owner per id and epoch"
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
      _ = try await checkWriters(client: clients[0], journalPrefix: journalPrefix, acks: [one.acks, two.acks])
      // Node 1's load may have had one send in flight when it exited.
      #expect(reduced >= acked && reduced <= acked + 1)
    }
  }

  /// The soak: nodes killed with SIGKILL one after another (every fourth
  /// round, paused past its lease instead), each replaced by a new node,
  /// while every node sends; then the checkers. Only when
  /// `FEEDBACKLOOP_CLUSTER_KILLS` is set (how many kills).
  @Test(
    "soak: nodes killed with SIGKILL or paused past their lease, round after round, and replaced: every acknowledged event reduced once, in its sender's order, one writer per id and epoch",
    .enabled(if: ProcessInfo.processInfo.environment["FEEDBACKLOOP_CLUSTER_KILLS"] != nil)
  )
  func soak() async throws {
    let kills = ProcessInfo.processInfo.environment["FEEDBACKLOOP_CLUSTER_KILLS"].flatMap(Int.init) ?? 20
    let seed =
      ProcessInfo.processInfo.environment["FEEDBACKLOOP_CLUSTER_SEED"].flatMap(UInt64.init)
      ?? UInt64.random(in: 1...999_999)
    var random = SeededGenerator(state: seed)
    print("[cluster soak] seed \(seed): \(kills) kills")
    let settings = ClusterSettings(shardCount: 8, leaseDuration: .seconds(1), tablePrefix: TestServer.newTablePrefix())
    let journalPrefix = TestServer.newTablePrefix()
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("feedbackloop-cluster-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let server = TestServer.shared
    try await server.withClients(1) { clients in
      try await ClusterNode.join(client: clients[0], nodeID: "setup", settings: settings).leave()
    }
    let (ids, count) = (24, 120)
    var acks: [Int: String] = [:]
    var live: [Int: pid_t] = [:]
    func start(_ number: Int) throws {
      acks[number] = "\(directory)/acks-\(number)"
      live[number] = try spawn(
        try executable("cluster-node"),
        [
          "\(server.port)", settings.tablePrefix, journalPrefix, "\(number)", "1000", "\(seed)", "\(ids)", "\(count)",
          acks[number]!,
        ])
    }
    defer {
      for pid in live.values {
        kill(pid, SIGCONT)
        kill(pid, SIGKILL)
        waitpid(pid, nil, 0)
      }
    }
    for number in 1...3 { try start(number) }
    var next = 4
    var (killed, paused) = (0, 0)
    func acknowledged() throws -> Int { try acks.values.reduce(0) { $0 + (try lines($1).count) } }
    for round in 1...kills {
      let before = try acknowledged()
      let wanted = Int.random(in: 5...40, using: &random)
      // Bounded: the live nodes may all have finished their load.
      _ = try await eventually(seconds: 10) { try acknowledged() >= before + wanted }
      let victim = live.keys.sorted()[Int.random(in: 0..<live.count, using: &random)]
      if round % 4 == 0 {
        kill(live[victim]!, SIGSTOP)
        try await Task.sleep(for: .milliseconds(1_500))
        kill(live[victim]!, SIGCONT)
        paused += 1
      } else {
        kill(live[victim]!, SIGKILL)
        waitpid(live[victim]!, nil, 0)
        live[victim] = nil
        killed += 1
        try start(next)
        next += 1
      }
    }
    for number in live.keys.sorted() {
      let finished = try await eventually(seconds: 120) { try lines(acks[number]!).last == "done" }
      #expect(finished, "node \(number) did not finish: \((try? lines(acks[number]!).suffix(3)) ?? [])")
    }
    let survivors = live
    live = [:]
    let files = acks.keys.sorted().map { acks[$0]! }
    let (senders, killedCount, pausedCount) = (1...(next - 1), killed, paused)
    try await server.withClients(1) { clients in
      let inbox = Inbox(prefix: settings.tablePrefix)
      let empty = try await eventually(seconds: 60) {
        try await clients[0].query("SELECT count(*) FROM \(unescaped: inbox.table)", logger: Logger(label: "test"))
          .collect().first!.decode(Int64.self) == 0
      }
      #expect(empty, "the inbox was not delivered")
      for pid in survivors.values {
        kill(pid, SIGKILL)
        waitpid(pid, nil, 0)
      }
      let (acked, reduced) = try await checkJournal(
        client: clients[0], journalPrefix: journalPrefix, acks: files, ids: ids, senders: senders)
      let appends = try await checkWriters(client: clients[0], journalPrefix: journalPrefix, acks: files)
      print(
        "[cluster soak] seed \(seed): \(killedCount) nodes killed, \(pausedCount) paused past their lease, \(senders.count) nodes in all; \(acked) acknowledged, \(reduced) reduced, \(appends) appends, one owner per id and epoch"
      )
      // Each killed node may have had one send in flight, stored and not acknowledged.
      #expect(reduced >= acked && reduced <= acked + killedCount)
    }
  }

  @Test(
    "a node killed with SIGKILL while its effects are in flight: its systems' effects start again on the new owner, with the same idempotency keys, and each answers once"
  )
  func effectsInFlightResumeAfterKill() async throws {
    let settings = ClusterSettings(shardCount: 8, leaseDuration: .seconds(1), tablePrefix: TestServer.newTablePrefix())
    let journalPrefix = TestServer.newTablePrefix()
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("feedbackloop-cluster-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let server = TestServer.shared
    let calls = settings.tablePrefix + "effect_calls"
    let logger = Logger(label: "test")
    try await server.withClients(1) { clients in
      try await ClusterNode.join(client: clients[0], nodeID: "setup", settings: settings).leave()
      // The external service the effects call: it records each call and its key.
      try await clients[0].query(
        "CREATE TABLE \(unescaped: calls) (key bigint NOT NULL, node integer NOT NULL)", logger: logger)
    }
    // Node 1's effects never answer: they are in flight when it is killed.
    func start(_ number: Int, effects: String) throws -> (pid: pid_t, acks: String) {
      let acks = "\(directory)/acks-\(number)"
      let arguments = [
        "\(server.port)", settings.tablePrefix, journalPrefix, "\(number)", "1000", "11", "6", "20", acks, effects,
      ]
      return (try spawn(try executable("cluster-node"), arguments), acks)
    }
    let one = try start(1, effects: "stall")
    let two = try start(2, effects: "complete")
    defer {
      for pid in [one.pid, two.pid] {
        kill(pid, SIGKILL)
        waitpid(pid, nil, 0)
      }
    }
    try await server.withClients(1) { clients in
      func callers() async throws -> [Int: Set<Int>] {
        var callers: [Int: Set<Int>] = [:]
        for try await (key, node) in try await clients[0].query(
          "SELECT key, node FROM \(unescaped: calls)", logger: logger
        ).decode((Int64, Int32).self) {
          callers[Int(key), default: []].insert(Int(node))
        }
        return callers
      }
      // Bounded waits for real processes: until node 1 has effects in flight.
      let inFlight = try await eventually(seconds: 60) {
        let started = try await callers().values.contains { $0.contains(1) }
        return try lines(one.acks).count >= 10 && started
      }
      #expect(inFlight, "node 1 never started an effect")
      kill(one.pid, SIGKILL)
      let finished = try await eventually(seconds: 60) { try lines(two.acks).last == "done" }
      #expect(finished, "node 2 did not finish")
      var requests: Set<Int> = []
      for path in [one.acks, two.acks] {
        for line in try lines(path) where line.hasPrefix("ack ") {
          requests.insert(Int(line.split(separator: " ")[2])!)
        }
      }
      // Until every acknowledged request is answered in the journal, read
      // as stored (a restore would claim the ids from node 2).
      let events = JournalEvents(prefix: journalPrefix)
      let answered = try await eventually(seconds: 60) {
        let answers = Set(try await events.values(clients[0]).filter { $0 < 0 }.map { -$0 })
        return requests.isSubset(of: answers)
      }
      let stored = try await events.values(clients[0])
      let unanswered = requests.subtracting(stored.filter { $0 < 0 }.map { -$0 }).sorted()
      let called = try await callers()
      #expect(
        answered,
        "acknowledged requests never answered: \(unanswered.map { "\($0) stored: \(stored.contains($0)), called by \(called[$0].map { $0.sorted() } ?? [])" })"
      )
      kill(two.pid, SIGKILL)
      waitpid(two.pid, nil, 0)
      let resumed = try await callers().filter { $0.value.contains(1) }
      #expect(!resumed.isEmpty)
      for (key, nodes) in resumed {
        #expect(nodes == [1, 2], "the effect of \(key), in flight on node 1, was not called again with its key")
      }
      let (acked, _) = try await checkJournal(
        client: clients[0], journalPrefix: journalPrefix, acks: [one.acks, two.acks])
      let appends = try await checkWriters(
        client: clients[0], journalPrefix: journalPrefix, acks: [one.acks, two.acks])
      print(
        "[cluster failover] \(acked) requests acknowledged, \(resumed.count) in flight on the killed node called again by its successor, \(appends) appends"
      )
    }
  }
}

/// A journal's events as stored: a durable system's envelope around the cluster's delivery.
private struct JournalEvents {
  let prefix: String

  func values(_ client: PostgresClient) async throws -> [Int] {
    var values: [Int] = []
    for try await payload in try await client.query(
      "SELECT payload FROM \(unescaped: prefix)events", logger: Logger(label: "test")
    ).decode(Data.self) {
      values.append(try JSONDurableCodec().decode(DurableEnvelope<Delivery<Int>>.self, from: payload).value.event)
    }
    return values
  }
}

/// The checker of writers, from the claims and appends each node wrote
/// down (RecordingJournal): no two owners ever claimed or appended for one
/// id in one epoch, and each event stored was appended by one owner once
/// (acknowledged, or tried by a node killed before it heard back). Returns
/// how many appends were acknowledged.
private func checkWriters(client: PostgresClient, journalPrefix: String, acks: [String]) async throws -> Int {
  struct Key: Hashable {
    let id: String
    let epoch: UInt64
  }
  var writers: [Key: Set<Int>] = [:]
  var claims: [Key: Int] = [:]
  var acknowledged: [String: [ClosedRange<UInt64>]] = [:]
  var tried: [String: [ClosedRange<UInt64>]] = [:]
  for path in acks {
    for line in try lines(path + ".journal") {
      let words = line.split(separator: " ").map(String.init)
      let (kind, node, key) = (words[0], Int(words[1])!, Key(id: words[2], epoch: UInt64(words[3])!))
      writers[key, default: []].insert(node)
      if kind == "claim" {
        claims[key, default: 0] += 1
      } else {
        let range = UInt64(words[4])!...UInt64(words[5])!
        if kind == "ok" {
          acknowledged[key.id, default: []].append(range)
        } else {
          tried[key.id, default: []].append(range)
        }
      }
    }
  }
  for (key, nodes) in writers {
    #expect(nodes.count == 1, "\(key.id): nodes \(nodes.sorted()) wrote in epoch \(key.epoch)")
  }
  for (key, count) in claims {
    #expect(count == 1, "\(key.id): epoch \(key.epoch) claimed \(count) times")
  }
  var stored = 0
  for try await (id, sequence) in try await client.query(
    "SELECT system_id, sequence FROM \(unescaped: journalPrefix)events", logger: Logger(label: "test")
  ).decode((String, Int64).self) {
    stored += 1
    let sequence = UInt64(sequence)
    let owners = acknowledged[id, default: []].filter { $0.contains(sequence) }.count
    let attempts = tried[id, default: []].filter { $0.contains(sequence) }.count
    #expect(owners == 1 || (owners == 0 && attempts > 0), "\(id) #\(sequence): appended by \(owners) owners")
  }
  #expect(stored > 0)
  return acknowledged.values.reduce(0) { $0 + $1.count }
}

/// The checker: each system restored from the journal alone holds every
/// acknowledged event once, each sender's in order. Returns how many were
/// acknowledged and how many reduced.
private func checkJournal(
  client: PostgresClient, journalPrefix: String, acks: [String], ids: Int = 12, senders: ClosedRange<Int> = 1...3
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
  for id in (0..<ids).map({ "s\($0)" }) {
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
    for sender in senders {
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
