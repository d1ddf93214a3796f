import FeedbackLoop
import FeedbackLoopDurable
import FeedbackLoopTesting
import Foundation
import Testing

@Suite("Durability (G16)", .runsLeftoverJobs, .timeLimit(.minutes(1)))
struct DurabilityTests {
  @Test("G16 events acknowledged by sendDurably survive a crash: the restored system has exactly their state")
  func acknowledgedEventsSurviveACrash() async throws {
    let harness = DurableHarness()
    var account: DurableSystem<Account.State, Account.Event>? = try await harness.restore()
    try await account?.sendDurably(.deposit(10))
    try await account?.sendDurably(.deposit(5))
    // The crash: the journal stops answering, then the process is gone
    // with the events it had reduced but not stored.
    harness.journal.hold()
    account?.send(.deposit(1000))
    #expect(account?.state.balance == 1015)
    account = nil

    let later = DurableHarness()
    let restored = try await DurableSystem.restore(
      id: "account", writer: JournalWriter(journal: harness.journal.base), initial: Account.State(),
      reduce: Account.reduce, environment: later.environment)
    #expect(restored.state == Account.fold([.deposit(10), .deposit(5)]))
    #expect(restored.committedSequence == 2)
    harness.journal.release()
  }

  @Test("G16 no event is applied twice: restoring again and again gives the fold of the stored events, once each")
  func noEventAppliedTwice() async throws {
    let harness = DurableHarness()
    var expected: [Account.Event] = []
    for round in 1...3 {
      let account = try await harness.restore()
      #expect(account.state == Account.fold(expected))
      for amount in [round, round * 10] {
        try await account.sendDurably(.deposit(amount))
        expected.append(.deposit(amount))
      }
      account.stop()
    }
    #expect(try await harness.storedEvents() == expected)
    let history = try #require(try await harness.journal.base.load("account"))
    #expect(history.events.map(\.sequence) == Array(1...6))
    let last = try await harness.restore()
    #expect(last.state == Account.fold(expected))
    #expect(last.state.balance == 66)
  }

  @Test("G16 a state's effect does not start before the event that produced it is committed")
  func effectsWaitForTheCommit() async throws {
    let harness = DurableHarness()
    let payouts = Locked<[Int]>([])
    let account = try await harness.restore(feedbacks: [Account.payouts(started: payouts)])
    harness.journal.hold()
    account.send(.requestPayout(7))
    #expect(account.state.pendingPayout == 7)  // observers see it at once
    await harness.journal.waitForAppendCalls(1)
    #expect(harness.executor.runUntilIdle() == 0)
    #expect(payouts.withLock { $0 }.isEmpty)
    #expect(account.committedSequence == 0)

    harness.journal.release()
    try await account.waitForCommit()
    harness.executor.runUntilIdle()
    #expect(payouts.withLock { $0 } == [7])
    try await account.waitForCommit()
    #expect(account.state.paidOut == [7])
    #expect(try await harness.storedEvents() == [.requestPayout(7), .paidOut(7)])
    account.stop()
  }

  @Test("G16 an effect never acts on a state the journal failed to store: it ends without running")
  func effectOfALostStateNeverRuns() async throws {
    let harness = DurableHarness()
    let payouts = Locked<[Int]>([])
    let account = try await harness.restore(feedbacks: [Account.payouts(started: payouts)])
    harness.journal.hold()
    harness.journal.base.failNextAppend()
    account.send(.requestPayout(7))
    await harness.journal.waitForAppendCalls(1)
    harness.executor.runUntilIdle()
    #expect(payouts.withLock { $0 }.isEmpty)
    harness.journal.release()
    await #expect(throws: DurableSystemError.self) { try await account.waitForCommit() }
    harness.executor.runUntilIdle()
    #expect(payouts.withLock { $0 }.isEmpty)
    #expect(account.isStopped)
    #expect(account.runningTaskCount == 0)
    #expect(harness.logs.records.contains { $0.level == .error && $0.message.contains("journal failed") })
  }

  @Test("G16 G1 a restored state restarts its query feedback's effect; replayed events trigger no event feedback")
  func restoredStateRestartsItsEffects() async throws {
    let harness = DurableHarness()
    let first = try await harness.restore()
    try await first.sendDurably(.deposit(3))
    try await first.sendDurably(.requestPayout(2))
    first.stop()

    let payouts = Locked<[Int]>([])
    let eventsSeen = Locked<[Account.Event]>([])
    let onEvent = Feedback<Account.State, Account.Event>.onEvent { event, _ in
      eventsSeen.withLock { $0.append(event) }
      return .none
    }
    let restored = try await harness.restore(feedbacks: [Account.payouts(started: payouts), onEvent])
    #expect(restored.state.pendingPayout == 2)
    harness.executor.runUntilIdle()
    #expect(payouts.withLock { $0 } == [2])
    try await restored.waitForCommit()
    #expect(restored.state.paidOut == [2])
    #expect(eventsSeen.withLock { $0 } == [.paidOut(2)])
    restored.stop()
  }

  @Test("G16 stopping writes every event reduced before the stop")
  func stopStillWritesReducedEvents() async throws {
    let harness = DurableHarness()
    let account = try await harness.restore()
    harness.journal.hold()
    account.send(.deposit(1))
    account.send(.deposit(2))
    account.stop()
    account.send(.deposit(100))  // after the stop: dropped
    harness.journal.release()
    try await account.waitForCommit()
    #expect(try await harness.storedEvents() == [.deposit(1), .deposit(2)])
    await #expect(throws: DurableSystemError.self) { try await account.sendDurably(.deposit(5)) }
  }
}

@Suite("Durable main-actor systems", .runsLeftoverJobs, .timeLimit(.minutes(1)))
@MainActor
struct DurableMainActorTests {
  @Test("G10 G16 a main-actor durable system reduces on the main actor, and its effect waits for the commit")
  func mainActorSystem() async throws {
    let harness = DurableHarness()
    let payouts = Locked<[Int]>([])
    let account = try await DurableSystem.restore(
      id: "account", writer: harness.writer, initial: Account.State(), reduce: Account.reduce,
      feedbacks: [Account.payouts(started: payouts)], isolation: .mainActor, environment: harness.environment)
    harness.journal.hold()
    account.send(.requestPayout(3))
    #expect(account.state.pendingPayout == 3)  // reduced before send returned, on the main actor
    await harness.journal.waitForAppendCalls(1)
    #expect(harness.executor.runUntilIdle() == 0)
    harness.journal.release()
    try await account.waitForCommit()
    harness.executor.runUntilIdle()
    #expect(payouts.withLock { $0 } == [3])
    try await account.sendDurably(.deposit(1))  // `.paidOut(3)` hops to the main actor first
    try await account.waitForCommit()
    #expect(try await harness.storedEvents() == [.requestPayout(3), .paidOut(3), .deposit(1)])
    account.stop()
  }
}
