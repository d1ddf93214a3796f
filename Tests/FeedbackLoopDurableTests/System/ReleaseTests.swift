import FeedbackLoop
import FeedbackLoopDurable
import FeedbackLoopTesting
import Foundation
import Testing

/// The ledger holds its system, to stop it when the journal fails: the
/// system must still go away with the durable system, in every state.
@Suite("Releasing a durable system", .runsLeftoverJobs, .timeLimit(.minutes(1)))
struct ReleaseTests {
  @Test("G9 a released durable system is deallocated with its system, after its events are stored")
  func releasedAfterItsEvents() async throws {
    let harness = DurableHarness()
    var account: DurableSystem<Account.State, Account.Event>? = try await harness.restore(feedbacks: [
      Account.payouts(started: Locked([]))
    ])
    try await account?.sendDurably(.deposit(1))
    weak let system = account?.system
    weak let durable = account
    account = nil
    harness.executor.runUntilIdle()
    #expect(durable == nil)
    #expect(system == nil)
    #expect(try await harness.storedEvents() == [.deposit(1)])
  }

  @Test("G9 a durable system released while its events wait for the journal is deallocated with its system")
  func releasedWhileWriting() async throws {
    let harness = DurableHarness()
    var account: DurableSystem<Account.State, Account.Event>? = try await harness.restore()
    harness.journal.hold()
    account?.send(.deposit(1))
    await harness.journal.waitForAppendCalls(1)
    weak let system = account?.system
    account = nil
    #expect(system == nil)
    harness.journal.release()
    let other = try await harness.restore("other")
    try await other.sendDurably(.deposit(2))  // the writer is done with the released one
    #expect(try await harness.storedEvents() == [.deposit(1)])
    other.stop()
  }

  @Test("G9 a durable system whose journal failed is stopped, and deallocated with its system once released")
  func releasedAfterAFailure() async throws {
    let harness = DurableHarness()
    var account: DurableSystem<Account.State, Account.Event>? = try await harness.restore()
    harness.journal.base.failAppends()
    await #expect(throws: DurableSystemError.self) { try await account?.sendDurably(.deposit(1)) }
    #expect(account?.isStopped == true)
    weak let system = account?.system
    account = nil
    #expect(system == nil)
  }

  @Test("G9 a stopped durable system lets its system go when released, whoever else held the ledger")
  func stoppedThenReleased() async throws {
    let harness = DurableHarness()
    var account: DurableSystem<Account.State, Account.Event>? = try await harness.restore()
    account?.stop()
    weak let system = account?.system
    account = nil
    #expect(system == nil)
  }
}
