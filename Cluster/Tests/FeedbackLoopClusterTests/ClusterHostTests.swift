import FeedbackLoop
import FeedbackLoopDurable
import FeedbackLoopPostgreSQL
import Foundation
import Logging
import PostgresNIO
import Testing

@testable import FeedbackLoopCluster

@Suite("Sending to systems on other nodes")
struct ClusterHostTests {
  typealias Host = ClusterHost<[Int], Int>

  private func settings(lease: Duration = .seconds(30)) -> ClusterSettings {
    ClusterSettings(shardCount: 8, leaseDuration: lease, tablePrefix: TestServer.newTablePrefix())
  }

  /// A host of event logs on `node`, journaled in the tables of `journal`.
  private func host(
    _ node: ClusterNode, _ client: PostgresClient, journal prefix: String,
    feedbacks: [LiftableFeedback<[Int], Int>] = []
  ) async throws -> Host {
    let journal = try await PostgresJournal.open(client: client, tablePrefix: prefix)
    return try await Host(
      node: node, client: client, writer: JournalWriter(journal: journal), initial: [],
      reduce: { log, value in log.append(value) }, feedbacks: feedbacks)
  }

  /// Waits, a few seconds at most, for `condition`: effects start on tasks
  /// of their own once their state is stored in a real database.
  private func eventually(_ condition: @Sendable () async throws -> Bool) async throws -> Bool {
    let start = ContinuousClock.now
    while start.duration(to: .now) < .seconds(5) {
      if try await condition() { return true }
      try await Task.sleep(for: .milliseconds(10))
    }
    return try await condition()
  }

  /// Delivers until the inbox of the node's shards is empty.
  private func deliverAll(_ host: Host) async throws {
    while try await host.deliverInbox() > 0 {}
  }

  @Test("G2 events sent to an id owned by another node arrive, in each sender's order, once each")
  func eventsArriveInOrder() async throws {
    let settings = settings()
    let journal = TestServer.newTablePrefix()
    try await TestServer.shared.withClients(2) { clients in
      let a = try await ClusterNode.join(client: clients[0], nodeID: "a", settings: settings)
      let b = try await ClusterNode.join(client: clients[1], nodeID: "b", settings: settings)
      let (hostA, hostB) = (
        try await host(a, clients[0], journal: journal), try await host(b, clients[1], journal: journal)
      )
      #expect(a.owns("x") && !b.owns("x"))
      // Two tasks of b and one of a send to x at once.
      try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { for value in 1...20 { try await hostB.send(value, to: "x") } }
        group.addTask { for value in 101...120 { try await hostB.send(value, to: "x") } }
        group.addTask { for value in 201...210 { try await hostA.send(value, to: "x") } }
        try await group.waitForAll()
      }
      try await deliverAll(hostA)
      let log = try #require(try await hostA.state(of: "x"))
      #expect(log.count == 50)
      #expect(log.filter { $0 < 100 } == Array(1...20))
      #expect(log.filter { $0 > 100 && $0 < 200 } == Array(101...120))
      #expect(log.filter { $0 > 200 } == Array(201...210))
      #expect(try await hostB.state(of: "x") == nil)
      #expect(try await hostA.deliverInbox() == 0)
    }
  }

  @Test(
    "G2 an event whose inbox row outlived its delivery (a crash before the delete) is not reduced twice, by the next owner either"
  )
  func redeliveredRowSkipped() async throws {
    let settings = settings()
    let journal = TestServer.newTablePrefix()
    try await TestServer.shared.withClients(3) { clients in
      let a = try await ClusterNode.join(client: clients[0], nodeID: "a", settings: settings)
      let b = try await ClusterNode.join(client: clients[1], nodeID: "b", settings: settings)
      let (hostA, hostB) = (
        try await host(a, clients[0], journal: journal), try await host(b, clients[1], journal: journal)
      )
      for value in 1...3 { try await hostB.send(value, to: "x") }
      try await deliverAll(hostA)
      // The row of b's second event again, as a crash between the journal's
      // append and the row's delete leaves it.
      let payload = try JSONEncoder().encode(2)
      try await Inbox(prefix: settings.tablePrefix).insert(
        shard: a.shardMap.shard(of: "x"), target: "x", sender: "b", sequence: 2, payload: payload,
        on: clients[1], logger: Logger(label: "test"))
      #expect(try await hostA.deliverInbox() == 1)
      #expect(try await hostA.state(of: "x") == [1, 2, 3])
      // Once more, found by a node that restores x from the journal.
      try await Inbox(prefix: settings.tablePrefix).insert(
        shard: a.shardMap.shard(of: "x"), target: "x", sender: "b", sequence: 3, payload: try JSONEncoder().encode(3),
        on: clients[1], logger: Logger(label: "test"))
      try await a.leave()
      let c = try await ClusterNode.join(client: clients[2], nodeID: "c", settings: settings)
      try await b.refreshLeases()
      try await c.refreshLeases()
      let hostC = try await host(c, clients[2], journal: journal)
      try await deliverAll(hostB)
      try await deliverAll(hostC)
      let owner = b.owns("x") ? hostB : hostC
      #expect(try await owner.state(of: "x") == [1, 2, 3])
      #expect(try await hostB.deliverInbox() + hostC.deliverInbox() == 0)
    }
  }

  @Test("ids of any text and events of a megabyte reach their owner intact")
  func hostileIDsAndLargeEvents() async throws {
    let settings = settings()
    let journalPrefix = TestServer.newTablePrefix()
    try await TestServer.shared.withClients(2) { clients in
      var hosts: [ClusterHost<[String], String>] = []
      for (name, client) in zip(["a", "b"], clients) {
        let node = try await ClusterNode.join(client: client, nodeID: name, settings: settings)
        let journal = try await PostgresJournal.open(client: client, tablePrefix: journalPrefix)
        hosts.append(
          try await ClusterHost(
            node: node, client: client, writer: JournalWriter(journal: journal), initial: [],
            reduce: { log, text in log.append(text) }))
      }
      let ids = [
        "x'); DROP TABLE \(settings.tablePrefix)inbox; --", "café 🚀", "", String(repeating: "long", count: 1_000),
      ]
      let large = String(repeating: "é\u{0}\"'", count: 250_000)
      for id in ids { try await hosts[1].send(id, to: id) }
      try await hosts[1].send(large, to: ids[1])
      while try await hosts[0].deliverInbox() > 0 {}
      for id in ids {
        let expected = id == ids[1] ? [id, large] : [id]
        #expect(try await hosts[0].state(of: id) == expected, "\(id.prefix(20))")
      }
    }
  }

  @Test("G2 events keep their order, once each, across a takeover; the node that gives the shard up stops its systems")
  func orderAcrossTakeover() async throws {
    let settings = settings()
    let journal = TestServer.newTablePrefix()
    try await TestServer.shared.withClients(2) { clients in
      let a = try await ClusterNode.join(client: clients[0], nodeID: "a", settings: settings)
      let b = try await ClusterNode.join(client: clients[1], nodeID: "b", settings: settings)
      let (hostA, hostB) = (
        try await host(a, clients[0], journal: journal), try await host(b, clients[1], journal: journal)
      )
      for value in 1...10 { try await hostB.send(value, to: "x") }
      #expect(try await hostA.deliverInbox(limit: 4) == 4)
      let system = try await hostA.loadedSystem("x")
      try await a.leave()
      #expect(system.isStopped)
      #expect(try await hostA.deliverInbox() == 0)
      #expect(try await b.refreshLeases().claimed == Array(0..<8))
      for value in 11...15 { try await hostB.send(value, to: "x") }
      try await deliverAll(hostB)
      #expect(try await hostB.state(of: "x") == Array(1...15))
    }
  }

  @Test("an owner running its host is woken by the inbox's notification, without waiting for its next poll")
  func notificationWakesOwner() async throws {
    // A renewal interval of 10 seconds: an event delivered sooner was woken by its notification.
    let settings = settings(lease: .seconds(30))
    let journal = TestServer.newTablePrefix()
    try await TestServer.shared.withClients(2) { clients in
      let a = try await ClusterNode.join(client: clients[0], nodeID: "a", settings: settings)
      let b = try await ClusterNode.join(client: clients[1], nodeID: "b", settings: settings)
      let (hostA, hostB) = (
        try await host(a, clients[0], journal: journal), try await host(b, clients[1], journal: journal)
      )
      let running = Task { await hostA.run() }
      // Bounded waits on a real database: for the LISTEN, then for the delivery.
      let start = ContinuousClock.now
      while !hostA.isListening.withLock({ $0 }), start.duration(to: .now) < .seconds(5) {
        try await Task.sleep(for: .milliseconds(10))
      }
      #expect(hostA.isListening.withLock { $0 })
      let sent = ContinuousClock.now
      try await hostB.send(1, to: "x")
      while try await hostA.state(of: "x") != [1], sent.duration(to: .now) < .seconds(5) {
        try await Task.sleep(for: .milliseconds(10))
      }
      #expect(try await hostA.state(of: "x") == [1])
      #expect(sent.duration(to: .now) < .seconds(5))
      running.cancel()
      await running.value
      // Its systems' events committed before the clients close.
      await hostA.stop()
    }
  }

  @Test("a taken-over system with an effect in flight starts it again on its new node, without a new event")
  func effectsResumeAfterTakeover() async throws {
    let settings = settings()
    let journal = TestServer.newTablePrefix()
    let starts = Locked<[String]>([])
    // A negative value asks for work that runs until cancelled.
    func feedbacks(_ node: String) -> [LiftableFeedback<[Int], Int>] {
      [
        .query({ log in log.last.flatMap { $0 < 0 ? $0 : nil } }) { _ in
          .run { _ in
            starts.withLock { $0.append(node) }
            try await Task.sleep(for: .seconds(3_600))
          }
        }
      ]
    }
    let (feedbacksA, feedbacksB) = (feedbacks("a"), feedbacks("b"))
    try await TestServer.shared.withClients(2) { clients in
      let a = try await ClusterNode.join(client: clients[0], nodeID: "a", settings: settings)
      let b = try await ClusterNode.join(client: clients[1], nodeID: "b", settings: settings)
      let hostA = try await host(a, clients[0], journal: journal, feedbacks: feedbacksA)
      let hostB = try await host(b, clients[1], journal: journal, feedbacks: feedbacksB)
      try await hostB.send(-1, to: "x")
      try await deliverAll(hostA)
      #expect(try await eventually { starts.withLock { $0 } == ["a"] })
      try await a.leave()
      #expect(try await b.refreshLeases().claimed == Array(0..<8))
      #expect(try await eventually { starts.withLock { $0 } == ["a", "b"] })
      #expect(hostB.loadedIDs == ["x"])
    }
  }

  // The one wait for real time: a lease expires on the database's clock.
  // 3 seconds, not 1: b must still count its fresh lease by its own clock
  // when it restores x, on a machine loaded by the other tests.
  @Test("G17 a node paused past its lease has its appends refused once another node restored the id")
  func pausedNodeRefused() async throws {
    let settings = settings(lease: .seconds(3))
    let journal = TestServer.newTablePrefix()
    try await TestServer.shared.withClients(2) { clients in
      let a = try await ClusterNode.join(client: clients[0], nodeID: "a", settings: settings)
      let hostA = try await host(a, clients[0], journal: journal)
      try await hostA.send(1, to: "x")
      try await deliverAll(hostA)
      let stale = try await hostA.loadedSystem("x")
      #expect(stale.state.state == [1])
      // a is paused past its lease; b joins and takes every shard.
      try await Task.sleep(for: .milliseconds(3_300))
      let b = try await ClusterNode.join(client: clients[1], nodeID: "b", settings: settings)
      #expect(b.ownedShards == Array(0..<8))
      let hostB = try await host(b, clients[1], journal: journal)
      #expect(try await hostB.state(of: "x") == [1])
      // a wakes with x loaded and appends, as a delivery in flight would.
      await #expect(throws: DurableSystemError.self) {
        try await stale.sendDurably(Delivery(sender: "late", sequence: 1, event: 99))
      }
      #expect(try await hostB.state(of: "x") == [1])
    }
  }

  @Test("a node keeps no sequence record for the ids it sent to once their sends are done")
  func senderRecordsPruned() async throws {
    let settings = settings()
    let journal = TestServer.newTablePrefix()
    try await TestServer.shared.withClients(1) { clients in
      let a = try await ClusterNode.join(client: clients[0], nodeID: "a", settings: settings)
      let hostA = try await host(a, clients[0], journal: journal)
      // Three tasks send to 50 ids at once, two of them to the same ids.
      try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { for index in 0..<50 { try await hostA.send(1, to: "id\(index)") } }
        group.addTask { for index in 0..<50 { try await hostA.send(2, to: "id\(index)") } }
        group.addTask { for index in 0..<50 { try await hostA.send(3, to: "other\(index)") } }
        try await group.waitForAll()
      }
      #expect(hostA.sequences.withLock { $0.busyTargets } == 0)
      try await deliverAll(hostA)
      for index in 0..<50 {
        #expect(try await hostA.state(of: "id\(index)")?.sorted() == [1, 2])
      }
    }
  }

  @Test(
    "G2 a system forgets the sequence records of senders that left the cluster once none of their rows is left, and keeps them while one waits"
  )
  func goneSendersForgotten() async throws {
    let settings = settings()
    let journal = TestServer.newTablePrefix()
    try await TestServer.shared.withClients(3) { clients in
      let a = try await ClusterNode.join(client: clients[0], nodeID: "a", settings: settings)
      let b = try await ClusterNode.join(client: clients[1], nodeID: "b", settings: settings)
      let c = try await ClusterNode.join(client: clients[2], nodeID: "c", settings: settings)
      let hostA = try await host(a, clients[0], journal: journal)
      let hostB = try await host(b, clients[1], journal: journal)
      let hostC = try await host(c, clients[2], journal: journal)
      #expect(a.owns("x"))
      try await hostB.send(1, to: "x")
      try await hostB.send(2, to: "x")
      try await hostC.send(10, to: "x")
      #expect(try await hostA.deliverInbox(limit: 1) == 1)
      // b leaves with its second row still in the inbox, and c with none.
      try await b.leave()
      try await c.leave()
      try await a.refreshLeases()
      #expect(a.liveMembers == ["a"])
      #expect(try await hostA.deliverInbox(limit: 1) == 1)
      #expect(try await hostA.loadedSystem("x").state.lastSequences.keys.sorted() == ["b"])
      try await deliverAll(hostA)
      try await hostA.send(20, to: "x")
      try await deliverAll(hostA)
      let system = try await hostA.loadedSystem("x")
      #expect(system.state.lastSequences.keys.sorted() == ["a"])
      #expect(system.state.state == [1, 2, 10, 20])
      // A restore from the journal folds to the same record.
      system.stop()
      try await system.waitForCommit()
      let restored = try await DurableSystem.restore(
        id: "x",
        writer: JournalWriter(journal: try await PostgresJournal.open(client: clients[0], tablePrefix: journal)),
        initial: DeliveredState(state: [Int]()),
        reduce: { (delivered: inout DeliveredState<[Int]>, delivery: Delivery<Int>) in
          delivered.reduce(delivery) { log, value in log.append(value) }
        })
      #expect(restored.state == system.state)
      restored.stop()
    }
  }

  @Test("an id that holds NUL is refused with an error that says so, and nothing is written")
  func nulInIDRefused() async throws {
    let settings = settings()
    let journal = TestServer.newTablePrefix()
    try await TestServer.shared.withClients(1) { clients in
      let a = try await ClusterNode.join(client: clients[0], nodeID: "a", settings: settings)
      let hostA = try await host(a, clients[0], journal: journal)
      do {
        try await hostA.send(1, to: "cart\u{0}42")
        Issue.record("an id holding NUL was sent")
      } catch ClusterError.systemIDHoldsNUL(let id) {
        #expect(id == "cart\u{0}42")
        #expect(ClusterError.systemIDHoldsNUL(id).description.contains("NUL"))
      }
      await #expect(throws: ClusterError.self) { try await hostA.state(of: "\u{0}") }
      // Not a collision with the id before the NUL either.
      try await hostA.send(2, to: "cart")
      #expect(try await hostA.deliverInbox() == 1)
      #expect(try await hostA.state(of: "cart") == [2])
    }
  }

  @Test(
    "a node that takes a shard over wakes its systems with effects in flight beyond the first page of the journal's ids"
  )
  func takeoverReadsEveryID() async throws {
    let settings = settings()
    let journalPrefix = TestServer.newTablePrefix()
    let starts = Locked<[String]>([])
    let feedbacks: [LiftableFeedback<[Int], Int>] = [
      .query({ log in log.last.flatMap { $0 < 0 ? $0 : nil } }) { _ in
        .run { _ in starts.withLock { $0.append("started") } }
      }
    ]
    try await TestServer.shared.withClients(2) { clients in
      let b = try await ClusterNode.join(client: clients[1], nodeID: "b", settings: settings)
      let a = try await ClusterNode.join(client: clients[0], nodeID: "a", settings: settings)
      #expect(try await b.refreshLeases().released == [4, 5, 6, 7])
      // More ids than a page of the journal's list, all in b's shards but
      // the last one, which has an effect in flight.
      let kept = (0..<2_000).map { "id\(10_000 + $0)" }.filter { b.shardMap.shard(of: $0) < 4 }.prefix(600)
      let last = try #require((20_000..<30_000).lazy.map { "id\($0)" }.first { b.shardMap.shard(of: $0) >= 4 })
      let journal = try await PostgresJournal.open(client: clients[0], tablePrefix: journalPrefix)
      // As a durable system stores its events: in an envelope of schema version 1.
      func stored(_ value: Int) throws -> Data {
        try JSONDurableCodec().encode(
          DurableEnvelope(version: 1, value: Delivery(sender: "s", sequence: 1, event: value)))
      }
      let results = try await journal.append(
        try kept.map {
          JournalBatch(
            systemID: $0, expectedSequence: 0,
            events: [try stored(1)])
        }
          + [
            JournalBatch(
              systemID: last, expectedSequence: 0,
              events: [try stored(-1)])
          ])
      #expect(results.allSatisfy { if case .appended = $0 { true } else { false } })
      let hostA = try await host(a, clients[0], journal: journalPrefix, feedbacks: feedbacks)
      #expect(try await a.refreshLeases().claimed == [4, 5, 6, 7])
      #expect(try await eventually { starts.withLock { $0 } == ["started"] })
      #expect(hostA.loadedIDs == [last])
      await hostA.stop()
    }
  }

  @Test("a running owner delivers the rows waiting in a shard it just claimed, without waiting for its next poll")
  func claimWakesDelivery() async throws {
    // A renewal interval of 10 seconds: rows delivered sooner were woken by the claim.
    let settings = settings(lease: .seconds(30))
    let journal = TestServer.newTablePrefix()
    try await TestServer.shared.withClients(2) { clients in
      let b = try await ClusterNode.join(client: clients[1], nodeID: "b", settings: settings)
      let a = try await ClusterNode.join(client: clients[0], nodeID: "a", settings: settings)
      let (hostA, hostB) = (
        try await host(a, clients[0], journal: journal), try await host(b, clients[1], journal: journal)
      )
      #expect(a.ownedShards.isEmpty)
      let running = Task { await hostA.run() }
      // Bounded waits on a real database: for the LISTEN, then for the delivery.
      let start = ContinuousClock.now
      while !hostA.isListening.withLock({ $0 }), start.duration(to: .now) < .seconds(5) {
        try await Task.sleep(for: .milliseconds(10))
      }
      try await hostB.send(1, to: "x")
      try await b.leave()
      #expect(try await a.refreshLeases().claimed == Array(0..<8))
      let claimed = ContinuousClock.now
      while try await hostA.state(of: "x") != [1], claimed.duration(to: .now) < .seconds(5) {
        try await Task.sleep(for: .milliseconds(10))
      }
      #expect(try await hostA.state(of: "x") == [1])
      running.cancel()
      await running.value
      await hostA.stop()
    }
  }
}
