import FeedbackLoop
import FeedbackLoopDurable
import FeedbackLoopTesting
import Foundation
import Testing

@Suite("Durable host", .runsLeftoverJobs, .timeLimit(.minutes(1)))
struct DurableHostTests {
  @Test("A send to an id restores its system, with the state its journal holds")
  func sendRestores() async throws {
    let harness = HostHarness()
    try await harness.host.sendDurably(.deposit(10), to: "a")
    try await harness.host.sendDurably(.deposit(5), to: "b")
    #expect(harness.host.loadedIDs == ["a", "b"])
    await harness.host.stop()

    let later = DurableHost<Account.State, Account.Event> { id in
      try await harness.durable.restore(id)
    }
    try await later.sendDurably(.deposit(1), to: "a")
    #expect(try await later.system("a").state == Account.fold([.deposit(10), .deposit(1)]))
    #expect(try await later.system("b").state.balance == 5)
    await later.stop()
  }

  @Test("Two concurrent gets of one id restore it once, and get the same system")
  func concurrentGetsRestoreOnce() async throws {
    let door = Door()
    let harness = HostHarness(door: door)
    let gets = ManualTaskExecutor()
    let first = Task(executorPreference: gets) { try await harness.host.system("a") }
    let second = Task(executorPreference: gets) { try await harness.host.system("a") }
    // Both gets have asked the host before the restore may go on.
    gets.runUntilIdle()
    await door.waitForArrivals(1)
    door.open()
    let mine = try await harness.host.system("a")
    gets.runUntilIdle()
    let (one, two) = (try await first.value, try await second.value)
    #expect(one === mine)
    #expect(two === mine)
    #expect(harness.restoreCount("a") == 1)
    await harness.host.stop()
  }

  @Test("Gets from many tasks at once: each id is restored once, no event lost or applied twice")
  func manyTasksAtOnce() async throws {
    let harness = HostHarness()
    let ids = (0..<20).map { "account-\($0)" }
    try await withThrowingTaskGroup(of: Void.self) { group in
      for id in ids {
        for amount in 1...5 {
          group.addTask { try await harness.host.sendDurably(.deposit(amount), to: id) }
        }
      }
      try await group.waitForAll()
    }
    for id in ids {
      #expect(harness.restoreCount(id) == 1)
      #expect(try await harness.host.system(id).state.balance == 15)
      #expect(try await harness.durable.storedEvents(id).count == 5)
    }
    await harness.host.stop()
  }

  @Test("Sends from many tasks while a small memory bound passivates and restores: none lost or applied twice")
  func churnUnderATightBound() async throws {
    let harness = HostHarness(passivateAfter: nil, maxLoaded: 3)
    let ids = (0..<10).map { "account-\($0)" }
    try await withThrowingTaskGroup(of: Void.self) { group in
      for amount in 1...10 {
        for id in ids {
          group.addTask { try await harness.host.sendDurably(.deposit(amount), to: id) }
        }
      }
      try await group.waitForAll()
    }
    for id in ids {
      let stored = try await harness.durable.storedEvents(id)
      #expect(stored.count == 10)
      #expect(Account.fold(stored).deposits.sorted() == Array(1...10))
      #expect(try await harness.host.system(id).state.balance == 55)
    }
    await harness.host.stop()
  }

  @Test("An idle system is passivated after its idle time on the host's clock, and its next event restores it")
  func idleSystemIsPassivated() async throws {
    let harness = HostHarness(passivateAfter: .seconds(60))
    try await harness.host.sendDurably(.deposit(10), to: "a")
    harness.clock.advance(by: .seconds(30))
    try await harness.host.sendDurably(.deposit(1), to: "b")
    harness.clock.advance(by: .seconds(29))
    #expect(await harness.host.passivateIdleSystems() == [])
    harness.clock.advance(by: .seconds(1))
    #expect(await harness.host.passivateIdleSystems() == ["a"])
    #expect(harness.host.loadedIDs == ["b"])
    #expect(harness.host.loadedCount == 1)

    try await harness.host.sendDurably(.deposit(5), to: "a")
    #expect(harness.restoreCount("a") == 2)
    #expect(try await harness.host.system("a").state == Account.fold([.deposit(10), .deposit(5)]))
    await harness.host.stop()
  }

  @Test("Passivation waits for the system's queued events to be committed, then drops it")
  func passivationWaitsForTheCommit() async throws {
    let harness = HostHarness()
    try await harness.host.send(.deposit(7), to: "a")
    harness.durable.journal.hold()
    try await harness.host.send(.deposit(8), to: "a")
    harness.clock.advance(by: .seconds(60))
    let sweep = Task { await harness.host.passivateIdleSystems() }
    await harness.durable.journal.waitForAppendCalls(1)
    #expect(harness.host.loadedCount == 1)  // being passivated: still in memory
    #expect(harness.host.loadedIDs == [])
    harness.durable.journal.release()
    #expect(await sweep.value == ["a"])
    #expect(harness.host.loadedCount == 0)
    #expect(try await harness.durable.storedEvents("a") == [.deposit(7), .deposit(8)])
    await harness.host.stop()
  }

  @Test("A send to an id during its passivation waits for it, then is reduced on the state its events made")
  func sendDuringPassivation() async throws {
    let harness = HostHarness()
    harness.durable.journal.hold()
    try await harness.host.send(.deposit(1), to: "a")
    harness.clock.advance(by: .seconds(60))
    let sweep = Task { await harness.host.passivateIdleSystems() }
    await harness.durable.journal.waitForAppendCalls(1)

    let sends = ManualTaskExecutor()
    let send = Task(executorPreference: sends) { try await harness.host.send(.deposit(2), to: "a") }
    sends.runUntilIdle()  // the send has asked the host, and waits
    #expect(harness.restoreCount("a") == 1)
    harness.durable.journal.release()
    #expect(await sweep.value == ["a"])
    sends.runUntilIdle()  // the send restores the system
    let restored = try await harness.host.system("a")
    sends.runUntilIdle()
    try await send.value
    try await restored.waitForCommit()
    #expect(harness.restoreCount("a") == 2)
    #expect(restored.state == Account.fold([.deposit(1), .deposit(2)]))
    #expect(try await harness.durable.storedEvents("a") == [.deposit(1), .deposit(2)])
    #expect(restored.failure == nil)
    await harness.host.stop()
  }

  @Test("A system somebody holds is not passivated: its holder never finds it stopped")
  func heldSystemStays() async throws {
    let harness = HostHarness()
    var held: DurableSystem<Account.State, Account.Event>? = try await harness.host.system("a")
    try await harness.host.sendDurably(.deposit(1), to: "b")
    harness.clock.advance(by: .seconds(60))
    #expect(await harness.host.passivateIdleSystems() == ["b"])
    #expect(held?.isStopped == false)
    held = nil
    #expect(await harness.host.passivateIdleSystems() == ["a"])
    await harness.host.stop()
  }

  @Test("A system whose effects are in flight is not idle: it is passivated once they end")
  func effectsInFlightKeepASystem() async throws {
    let payouts = Locked<[Int]>([])
    let harness = HostHarness(feedbacks: [Account.payouts(started: payouts)])
    try await harness.host.sendDurably(.deposit(10), to: "a")
    try await harness.host.sendDurably(.requestPayout(4), to: "a")
    harness.clock.advance(by: .seconds(60))
    #expect(await harness.host.passivateIdleSystems() == [])  // the payout has not run
    #expect(payouts.withLock { $0 }.isEmpty)

    harness.durable.executor.runUntilIdle()
    try await harness.host.system("a").waitForCommit()
    harness.durable.executor.runUntilIdle()  // the effect's end, held until its event was stored
    #expect(payouts.withLock { $0 } == [4])
    harness.clock.advance(by: .seconds(60))
    #expect(await harness.host.passivateIdleSystems() == ["a"])
    #expect(try await harness.durable.storedEvents("a") == [.deposit(10), .requestPayout(4), .paidOut(4)])
    await harness.host.stop()
  }

  @Test("The memory bound passivates the least recently used idle systems before a get returns")
  func memoryBoundPassivatesLeastRecentlyUsed() async throws {
    let harness = HostHarness(passivateAfter: nil, maxLoaded: 2)
    try await harness.host.sendDurably(.deposit(1), to: "a")
    try await harness.host.sendDurably(.deposit(2), to: "b")
    try await harness.host.sendDurably(.deposit(3), to: "a")  // b is now the least recently used
    try await harness.host.sendDurably(.deposit(4), to: "c")
    #expect(harness.host.loadedIDs == ["a", "c"])
    #expect(harness.host.loadedCount == 2)
    #expect(try await harness.host.system("b").state.balance == 2)
    #expect(harness.host.loadedIDs == ["b", "c"])
    #expect(await harness.host.passivateIdleSystems() == [])  // no idle time given
    await harness.host.stop()
  }

  @Test("A restore that fails reports the id, and leaves the host usable; the next get tries again")
  func failedRestoreLeavesTheHostUsable() async throws {
    let harness = HostHarness()
    let bad = JournalBatch(systemID: "bad", expectedSequence: 0, events: [Data("not json".utf8)])
    _ = try await harness.durable.journal.base.append([bad])
    await #expect {
      try await harness.host.system("bad")
    } throws: { error in
      guard case DurableHostError.restoreFailed(let id, let underlying) = error else { return false }
      guard case DurableSystemError.decodingFailed(_, let sequence, _) = underlying else { return false }
      return id == "bad" && sequence == 1 && "\(error)".contains("\"bad\"")
    }
    try await harness.host.sendDurably(.deposit(3), to: "good")
    #expect(harness.host.loadedIDs == ["good"])
    await #expect(throws: DurableHostError.self) { try await harness.host.send(.deposit(1), to: "bad") }
    #expect(harness.restoreCount("bad") == 2)
    await harness.host.stop()
  }

  @Test("A loaded system that stopped is restored again by its next get")
  func stoppedSystemIsRestoredAgain() async throws {
    let harness = HostHarness()
    try await harness.host.sendDurably(.deposit(3), to: "a")
    try await harness.host.system("a").stop()
    let again = try await harness.host.system("a")
    #expect(!again.isStopped)
    #expect(again.state.balance == 3)
    #expect(harness.restoreCount("a") == 2)
    await harness.host.stop()
  }

  @Test("Stop stops every system and returns once their events are committed; then gets throw")
  func stopCommitsEverything() async throws {
    let harness = HostHarness()
    let a = try await harness.host.system("a")
    try await harness.host.sendDurably(.deposit(1), to: "b")
    harness.durable.journal.hold()
    a.send(.deposit(2))
    try await harness.host.send(.deposit(3), to: "b")
    let stop = Task { await harness.host.stop() }
    await harness.durable.journal.waitForAppendCalls(2)
    harness.durable.journal.release()
    await stop.value
    #expect(a.isStopped)
    #expect(harness.host.loadedCount == 0)
    #expect(harness.host.isStopped)
    #expect(try await harness.durable.storedEvents("a") == [.deposit(2)])
    #expect(try await harness.durable.storedEvents("b") == [.deposit(1), .deposit(3)])
    await #expect {
      try await harness.host.send(.deposit(4), to: "a")
    } throws: { error in
      guard case DurableHostError.stopped = error else { return false }
      return true
    }
  }

  @Test("Stop during a restore: the restored system is stopped, and its get hears that the host stopped")
  func stopDuringARestore() async throws {
    let door = Door()
    let harness = HostHarness(door: door)
    let get = Task { try await harness.host.system("a") }
    await door.waitForArrivals(1)
    let stops = ManualTaskExecutor()
    let stop = Task(executorPreference: stops) { await harness.host.stop() }
    stops.runUntilIdle()  // the host is stopped, and its stop waits for the restore
    #expect(harness.host.isStopped)
    door.open()
    await #expect {
      try await get.value
    } throws: { error in
      guard case DurableHostError.stopped = error else { return false }
      return true
    }
    stops.runUntilIdle()
    await stop.value
    #expect(harness.host.loadedCount == 0)
  }

  @Test("run() passivates idle systems as the host's clock passes their idle time")
  func runPassivatesAsTimePasses() async throws {
    let harness = HostHarness(passivateAfter: .seconds(60))
    let sweeps = ManualTaskExecutor()
    let clock = TestClock(executor: sweeps)
    let host = DurableHost<Account.State, Account.Event>(passivateAfter: .seconds(60), clock: clock) { id in
      harness.restores.withLock { $0[id, default: 0] += 1 }
      return try await harness.durable.restore(id)
    }
    try await host.sendDurably(.deposit(1), to: "a")
    let stopped = Door()
    let observation = try await host.system("a").observe({ _ in }, onStop: { Task { await stopped.pass() } })
    let sweeper = Task(executorPreference: sweeps) { await host.run() }
    sweeps.runUntilIdle()
    #expect(clock.sleeperCount == 1)
    clock.advance(by: .seconds(60))
    await stopped.waitForArrivals(1)  // the sweep stopped the idle system
    stopped.open()
    #expect(try await host.system("a").state.balance == 1)
    #expect(harness.restoreCount("a") == 2)
    sweeper.cancel()
    sweeps.runUntilIdle()
    await sweeper.value
    observation.cancel()
    await host.stop()
  }
}
