import FeedbackLoop
import FeedbackLoopDurable
import FeedbackLoopTesting
import Foundation
import Testing

@Suite("Effect keys", .runsLeftoverJobs, .timeLimit(.minutes(1)))
struct EffectKeyTests {
  @Test("G16 an effect in flight at a crash is issued again by the restored system with the equal key")
  func restoredEffectHasTheEqualKey() async throws {
    let harness = ClockedHarness()
    let keys = Locked<[EffectKey?]>([])
    var account: DurableSystem<Account.State, Account.Event>? = try await harness.restore(
      "account", initial: Account.State(), reduce: Account.reduce, feedbacks: [Account.slowPayouts(keys: keys)])
    try await account?.sendDurably(.deposit(5))
    try await account?.sendDurably(.requestPayout(7))
    harness.executor.runUntilIdle()
    try await account?.sendDurably(.deposit(1))  // the query is unchanged: the payout goes on
    harness.executor.runUntilIdle()
    #expect(keys.withLock { $0 } == [EffectKey(systemID: "account", sequence: 2, feedback: "payout")])
    harness.testClock.advance(by: .seconds(30))
    account = nil  // the crash: the payout is half done
    harness.executor.runUntilIdle()

    let restored = try await harness.restore(
      "account", initial: Account.State(), reduce: Account.reduce, feedbacks: [Account.slowPayouts(keys: keys)])
    harness.executor.runUntilIdle()
    let issued = keys.withLock { $0 }
    #expect(issued.count == 2)
    #expect(issued.last == issued.first)
    #expect(issued.last??.description == "account/2/payout")
    restored.stop()
  }

  @Test("G16 an effect in flight across a snapshot keeps its key after a restore from that snapshot")
  func keyKeptAcrossASnapshot() async throws {
    let harness = ClockedHarness()
    let keys = Locked<[EffectKey?]>([])
    var account: DurableSystem<Account.State, Account.Event>? = try await harness.restore(
      "account", initial: Account.State(), reduce: Account.reduce, feedbacks: [Account.slowPayouts(keys: keys)],
      snapshots: .every(3))
    try await account?.sendDurably(.deposit(5))
    try await account?.sendDurably(.requestPayout(7))
    harness.executor.runUntilIdle()
    try await account?.sendDurably(.deposit(1))  // a snapshot of state 3, the payout running
    try await account?.sendDurably(.deposit(2))
    account = nil
    harness.executor.runUntilIdle()
    #expect(try await harness.journal.base.load("account")?.snapshot?.sequence == 3)

    let restored = try await harness.restore(
      "account", initial: Account.State(), reduce: Account.reduce, feedbacks: [Account.slowPayouts(keys: keys)],
      snapshots: .every(3))
    harness.executor.runUntilIdle()
    #expect(restored.state.balance == 8)
    let issued = keys.withLock { $0 }.map { $0?.sequence }
    #expect(issued == [2, 2])
    restored.stop()
  }

  @Test("a later request of the same payout gets a key of its own")
  func laterRequestGetsAnotherKey() async throws {
    let harness = ClockedHarness()
    let keys = Locked<[EffectKey?]>([])
    let account = try await harness.restore(
      "account", initial: Account.State(), reduce: Account.reduce, feedbacks: [Account.slowPayouts(keys: keys)])
    try await account.sendDurably(.requestPayout(7))
    harness.executor.runUntilIdle()
    harness.testClock.advance(by: .seconds(60))  // paid: `.paidOut(7)` clears the query
    try await account.waitForCommit()
    harness.executor.runUntilIdle()
    #expect(account.state.paidOut == [7])
    try await account.sendDurably(.requestPayout(7))  // the same amount, asked again: a new payout
    harness.executor.runUntilIdle()
    #expect(keys.withLock { $0.map { $0?.sequence } } == [1, 3])
    account.stop()
  }

  @Test("G6 a keyed feedback gives each request a key of its own, equal again after a restore")
  func keyedFeedbackKeysEachRequest() async throws {
    let harness = ClockedHarness()
    let keys = Locked<[EffectKey?]>([])
    var downloads: DurableSystem<Downloads.State, Downloads.Event>? = try await harness.restore(
      "downloads", initial: Downloads.State(), reduce: Downloads.reduce,
      feedbacks: [Downloads.downloads(keys: keys)])
    try await downloads?.sendDurably(.enqueue("a.zip"))
    try await downloads?.sendDurably(.tick)
    try await downloads?.sendDurably(.enqueue("b.zip"))
    try await downloads?.sendDurably(.tick)
    harness.executor.runUntilIdle()
    let live = Set(keys.withLock { $0 }.compactMap { $0 })
    #expect(
      live == [
        EffectKey(systemID: "downloads", sequence: 1, feedback: "download", request: "a.zip"),
        EffectKey(systemID: "downloads", sequence: 3, feedback: "download", request: "b.zip"),
      ])
    downloads = nil
    harness.executor.runUntilIdle()
    keys.withLock { $0 = [] }

    let restored = try await harness.restore(
      "downloads", initial: Downloads.State(), reduce: Downloads.reduce,
      feedbacks: [Downloads.downloads(keys: keys)])
    harness.executor.runUntilIdle()
    #expect(Set(keys.withLock { $0 }.compactMap { $0 }) == live)
    restored.stop()
  }

  @Test("a key prints as text for a dedupe table and round-trips through Codable")
  func keyIsPrintableAndCodable() throws {
    let key = EffectKey(systemID: "orders-42", sequence: 17, feedback: "charge")
    #expect(key.description == "orders-42/17/charge")
    let keyed = EffectKey(systemID: "downloads", sequence: 3, feedback: "download", request: "b.zip")
    #expect(keyed.description == "downloads/3/download/b.zip")
    for value in [key, keyed] {
      let data = try JSONEncoder().encode(value)
      #expect(try JSONDecoder().decode(EffectKey.self, from: data) == value)
    }
  }

  @Test("a key read outside an effect of a durable system is nil")
  func keyOutsideADurableEffectIsNil() async throws {
    #expect(DurableEffect.key == nil)
    let executor = ManualTaskExecutor()
    let seen = Locked<[EffectKey?]>([])
    let plain = System(
      initial: Account.State(), reduce: Account.reduce,
      feedbacks: [
        .query(\.pendingPayout) { _ in .run { _ in seen.withLock { $0.append(DurableEffect.key) } } }
      ],
      environment: SystemEnvironment(effectExecutor: executor))
    plain.send(.requestPayout(1))
    executor.runUntilIdle()
    #expect(seen.withLock { $0 } == [nil])
    plain.stop()
  }

  @Test("two systems on one writer with equal sequences get keys that differ by system id")
  func keysDifferBySystem() async throws {
    let harness = ClockedHarness()
    let writer = JournalWriter(journal: harness.journal)
    let keys = Locked<[EffectKey?]>([])
    let first = try await harness.restore(
      "first", initial: Account.State(), reduce: Account.reduce, feedbacks: [Account.slowPayouts(keys: keys)],
      writer: writer)
    let second = try await harness.restore(
      "second", initial: Account.State(), reduce: Account.reduce, feedbacks: [Account.slowPayouts(keys: keys)],
      writer: writer)
    try await first.sendDurably(.requestPayout(1))
    try await second.sendDurably(.requestPayout(1))
    harness.executor.runUntilIdle()
    let issued = keys.withLock { $0 }.compactMap { $0 }
    #expect(issued.map(\.sequence) == [1, 1])
    #expect(Set(issued.map(\.systemID)) == ["first", "second"])
    #expect(issued[0] != issued[1])
    first.stop()
    second.stop()
  }

  @Test("an effect given an executor of its own still reads its key")
  func effectWithItsOwnExecutorReadsItsKey() async throws {
    let harness = ClockedHarness()
    let own = ManualTaskExecutor()
    let keys = Locked<[EffectKey?]>([])
    let payouts = Feedback<Account.State, Account.Event>.query(\.pendingPayout, name: "payout") { _ in
      Effect.run { _ in keys.withLock { $0.append(DurableEffect.key) } }.executorPreference(own)
    }
    let account = try await harness.restore(
      "account", initial: Account.State(), reduce: Account.reduce, feedbacks: [payouts])
    try await account.sendDurably(.requestPayout(3))
    own.runUntilIdle()
    #expect(keys.withLock { $0 } == [EffectKey(systemID: "account", sequence: 1, feedback: "payout")])
    account.stop()
    own.runUntilIdle()
  }

  @Test("G16 a restore while the journal holds appends keys the effect by what is stored")
  func restoreWhileAppendsAreHeld() async throws {
    let harness = ClockedHarness()
    let keys = Locked<[EffectKey?]>([])
    var account: DurableSystem<Account.State, Account.Event>? = try await harness.restore(
      "account", initial: Account.State(), reduce: Account.reduce, feedbacks: [Account.slowPayouts(keys: keys)])
    try await account?.sendDurably(.requestPayout(4))
    harness.executor.runUntilIdle()
    harness.journal.hold()
    account?.send(.deposit(9))  // reduced, never stored
    await harness.journal.waitForAppendCalls(2)
    account = nil

    let restored = try await DurableSystem.restore(
      id: "account", writer: JournalWriter(journal: harness.journal.base), initial: Account.State(),
      reduce: Account.reduce, feedbacks: [Account.slowPayouts(keys: keys)], environment: harness.environment)
    harness.executor.runUntilIdle()
    #expect(restored.committedSequence == 1)
    let issued = keys.withLock { $0 }
    #expect(issued.count == 2)
    #expect(issued.first == issued.last)
    harness.journal.release()
    restored.stop()
    harness.executor.runUntilIdle()
  }
}

@Suite("Effect keys of main-actor systems", .runsLeftoverJobs, .timeLimit(.minutes(1)))
@MainActor
struct MainActorEffectKeyTests {
  @Test("G10 a main-actor durable system's restored effect has the equal key, and a task it makes inherits it")
  func mainActorRestoredKey() async throws {
    let harness = ClockedHarness()
    let keys = Locked<[EffectKey?]>([])
    let payouts = Feedback<Account.State, Account.Event>.query(\.pendingPayout, name: "payout") { _ in
      .run { send in
        let inherited = await Task { DurableEffect.key }.value
        keys.withLock { $0.append(inherited) }
        try await send.clock.sleep(for: .seconds(60))
      }
    }
    func restore() async throws -> DurableSystem<Account.State, Account.Event> {
      try await DurableSystem.restore(
        id: "account", writer: JournalWriter(journal: harness.journal), initial: Account.State(),
        reduce: Account.reduce, feedbacks: [payouts], isolation: .mainActor, environment: harness.environment)
    }
    var account: DurableSystem<Account.State, Account.Event>? = try await restore()
    try await account?.sendDurably(.requestPayout(5))
    try await account?.sendDurably(.deposit(1))
    while harness.executor.runUntilIdle() > 0 || keys.withLock({ $0.isEmpty }) { await Task.yield() }
    account = nil
    harness.executor.runUntilIdle()

    let restored = try await restore()
    while harness.executor.runUntilIdle() > 0 || keys.withLock({ $0.count < 2 }) { await Task.yield() }
    #expect(
      keys.withLock { $0 }
        == Array(repeating: EffectKey(systemID: "account", sequence: 1, feedback: "payout"), count: 2))
    restored.stop()
    harness.executor.runUntilIdle()
  }
}
