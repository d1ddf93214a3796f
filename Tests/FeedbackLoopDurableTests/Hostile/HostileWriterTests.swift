import FeedbackLoop
import FeedbackLoopDurable
import FeedbackLoopTesting
import Foundation
import Testing

/// The writer under attack: a refused batch among others in one group commit,
/// a journal that throws once, two owners of one id in one process, systems
/// released while their events wait, snapshots taken on every event.
@Suite("Hostile writer", .runsLeftoverJobs, .timeLimit(.minutes(1)))
struct HostileWriterTests {
  @Test("G17 a batch refused in a group commit fails its own system only: the others' callers are acknowledged")
  func refusedBatchAmongOthers() async throws {
    let harness = DurableHarness()
    let stale = try await harness.restore("a")
    let current = try await harness.restore("a", writer: JournalWriter(journal: harness.journal))
    try await current.sendDurably(.deposit(1))
    let other = try await harness.restore("b")

    harness.journal.hold()
    let blocker = try await harness.restore("c")
    blocker.send(.deposit(0))  // an append in flight: what follows gathers
    await harness.journal.waitForAppendCalls(2)
    stale.send(.deposit(500))  // reduced before `send` returns, then gathered
    other.send(.deposit(2))
    let staleCaller = Task { try await stale.waitForCommit() }
    let otherCaller = Task { try await other.waitForCommit() }
    harness.journal.release()

    try await otherCaller.value
    let error = await #expect(throws: DurableSystemError.self) { try await staleCaller.value }
    guard case .refusedByJournal(let conflict) = error else {
      Issue.record("expected refusedByJournal, got \(String(describing: error))")
      return
    }
    #expect(
      conflict
        == SequenceConflict(systemID: "a", expectedSequence: 0, storedSequence: 1, writerEpoch: 1, storedEpoch: 2))
    // The stale owner's batch and the other system's were in one call.
    #expect(harness.journal.appendCalls.contains { call in Set(call.map(\.systemID)) == ["a", "b"] })
    #expect(other.committedSequence == 1)
    #expect(other.failure == nil)
    #expect(try await harness.storedEvents("a") == [.deposit(1)])
    #expect(try await harness.storedEvents("b") == [.deposit(2)])
    try await other.sendDurably(.deposit(3))
    #expect(try await harness.storedEvents("b") == [.deposit(2), .deposit(3)])
    for system in [stale, current, other, blocker] { system.stop() }
  }

  @Test("G17 a stale owner's events after a snapshot are never appended when the batch before them is refused")
  func staleOwnerEventsAfterASnapshot() async throws {
    let harness = DurableHarness()
    let stale = try await harness.restore(snapshots: .every(2))  // restored at 0
    let current = try await harness.restore(writer: JournalWriter(journal: harness.journal))
    try await current.sendDurably(.deposit(1))
    try await current.sendDurably(.deposit(2))  // the journal is at 2
    let blocker = try await harness.restore("blocker")
    harness.journal.hold()
    blocker.send(.deposit(0))  // an append in flight: the stale owner's events gather
    await harness.journal.waitForAppendCalls(3)
    // A snapshot after the second: the events up to it expect 0, and the
    // third would expect 2, which is what the other owner stored.
    for amount in [100, 200, 300] { stale.send(.deposit(amount)) }
    harness.journal.release()
    await #expect(throws: DurableSystemError.self) { try await stale.waitForCommit() }
    try await blocker.waitForCommit()
    #expect(try await harness.storedEvents() == [.deposit(1), .deposit(2)])
    for system in [current, stale, blocker] { system.stop() }
  }

  @Test(
    "G17 two restores of one id on one writer, both batches in one call: the older claim is refused, never merged")
  func twoOwnersOnOneWriterInOneCall() async throws {
    let harness = DurableHarness()
    let older = try await harness.restore()
    let owner = try await harness.restore()
    #expect(owner.epoch == older.epoch + 1)
    harness.journal.hold()
    owner.send(.deposit(1))  // its append is held
    await harness.journal.waitForAppendCalls(1)
    owner.send(.deposit(2))
    older.send(.deposit(100))  // gathered with the owner's second event
    harness.journal.release()
    try await owner.waitForCommit()
    await #expect(throws: DurableSystemError.self) { try await older.waitForCommit() }
    #expect(older.isStopped)
    #expect(try await harness.storedEvents() == [.deposit(1), .deposit(2)])

    // A restore after the refusal has the owner's events, once each.
    let restored = try await harness.restore(writer: JournalWriter(journal: harness.journal))
    #expect(restored.state == Account.fold([.deposit(1), .deposit(2)]))
    owner.stop()
    try await restored.sendDurably(.deposit(3))
    #expect(try await harness.storedEvents() == [.deposit(1), .deposit(2), .deposit(3)])
    restored.stop()
  }

  @Test("G17 a stale owner whose id was deleted and written again up to its own sequence is refused, not merged")
  func staleOwnerAfterDeleteAndRewrite() async throws {
    let harness = DurableHarness()
    let first = try await harness.restore()
    try await first.sendDurably(.deposit(1))
    let stale = try await harness.restore(writer: JournalWriter(journal: harness.journal))  // restored at 1
    first.stop()
    try await harness.journal.delete("account")
    let fresh = try await harness.restore(writer: JournalWriter(journal: harness.journal))  // restored at 0
    try await fresh.sendDurably(.deposit(50))  // the journal is at 1 again, another history
    stale.send(.deposit(9))
    var refused = false
    do { try await stale.waitForCommit() } catch is DurableSystemError { refused = true }
    #expect(refused)
    #expect(stale.failure.map { "\($0)" }?.contains("refused an append of epoch \(stale.epoch)") == true)
    #expect(try await harness.storedEvents() == [.deposit(50)])
    stale.stop()
    fresh.stop()
  }

  @Test("G16 a journal that throws for one call then works: the systems of that call stop, the others go on")
  func appendThrowsOnceThenWorks() async throws {
    let harness = DurableHarness()
    let a = try await harness.restore("a")
    let b = try await harness.restore("b")
    try await a.sendDurably(.deposit(1))
    harness.journal.hold()
    harness.journal.base.failNextAppend()
    a.send(.deposit(2))
    await harness.journal.waitForAppendCalls(2)  // only a's event is in the failing call
    b.send(.deposit(3))
    harness.journal.release()
    await #expect(throws: DurableSystemError.self) { try await a.waitForCommit() }
    try await b.waitForCommit()
    #expect(a.isStopped)
    #expect(a.committedSequence == 1)
    #expect(!b.isStopped)
    #expect(try await harness.storedEvents("a") == [.deposit(1)])
    #expect(try await harness.storedEvents("b") == [.deposit(3)])
    let restored = try await harness.restore("a")
    #expect(restored.state == Account.fold([.deposit(1)]))
    try await restored.sendDurably(.deposit(4))
    #expect(try await harness.storedEvents("a") == [.deposit(1), .deposit(4)])
    restored.stop()
    b.stop()
  }

  @Test("G16 a system released while its events wait for the journal: they are all still written, in order")
  func systemReleasedWhileQueued() async throws {
    let harness = DurableHarness()
    var account: DurableSystem<Account.State, Account.Event>? = try await harness.restore()
    harness.journal.hold()
    account?.send(.deposit(1))
    await harness.journal.waitForAppendCalls(1)
    account?.send(.deposit(2))
    account?.send(.deposit(3))
    account = nil
    harness.journal.release()
    // The writer appends in order: once another system's event is
    // acknowledged, the released system's appends are done.
    let other = try await harness.restore("other")
    try await other.sendDurably(.deposit(9))
    #expect(try await harness.storedEvents() == [.deposit(1), .deposit(2), .deposit(3)])
    other.stop()
  }

  @Test(
    "G14 a writer bounded to 2 refuses sends at the door under overload; what it refused is neither reduced nor stored")
  func boundedWriterUnderOverload() async throws {
    let harness = DurableHarness(queue: .refuseNewEvents(limit: 2))
    let account = try await harness.restore()
    harness.journal.hold()
    account.send(.deposit(1))
    await harness.journal.waitForAppendCalls(1)  // taken: the queue is empty again
    account.send(.deposit(2))
    account.send(.deposit(3))
    account.send(.deposit(4))  // refused
    await #expect(throws: DurableSystemError.self) { try await account.sendDurably(.deposit(5)) }
    #expect(account.state.deposits == [1, 2, 3])
    #expect(harness.writer.queuedEventCount == 2)
    harness.journal.release()
    try await account.waitForCommit()
    #expect(harness.writer.queuedEventCount == 0)
    try await account.sendDurably(.deposit(6))
    #expect(try await harness.storedEvents() == [1, 2, 3, 6].map(Account.Event.deposit))
    account.stop()
  }

  @Test(
    "G16 a snapshot on every event, and one whose predicate reads the state, each equal the fold of the events before it"
  )
  func snapshotsEqualTheFold() async throws {
    let every = DurableHarness()
    let account = try await every.restore(snapshots: .every(1))
    every.journal.hold()
    account.send(.deposit(1))
    await every.journal.waitForAppendCalls(1)
    for amount in 2...50 { account.send(.deposit(amount)) }
    every.journal.release()
    try await account.waitForCommit()
    try await expectSnapshotEqualsTheFold(every, events: (1...50).map(Account.Event.deposit))
    account.stop()

    let byState = DurableHarness()
    let odd = try await byState.restore(snapshots: .when { state, _ in state.balance % 2 == 1 })
    let events = [3, 4, 6, 1, 2, 2, 7, 8].map(Account.Event.deposit)
    for event in events { odd.send(event) }
    try await odd.waitForCommit()
    let history = try #require(try await byState.journal.base.load("account"))
    // Balances: 3, 7, 13, 14, 16, 18, 25, 33: the last odd one is the 8th.
    #expect(history.snapshot?.sequence == 8)
    try await expectSnapshotEqualsTheFold(byState, events: events)
    odd.stop()
  }

  private func expectSnapshotEqualsTheFold(_ harness: DurableHarness, events: [Account.Event]) async throws {
    let history = try #require(try await harness.journal.base.load("account"))
    let snapshot = try #require(history.snapshot)
    let state = try JSONDurableCodec().decode(DurableEnvelope<Account.State>.self, from: snapshot.payload).value
    #expect(state == Account.fold(Array(events.prefix(Int(snapshot.sequence)))))
    #expect(history.events.map(\.sequence) == (Int(snapshot.sequence)..<events.count).map { UInt64($0 + 1) })
  }
}
