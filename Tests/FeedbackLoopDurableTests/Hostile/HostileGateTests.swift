import FeedbackLoop
import FeedbackLoopDurable
import FeedbackLoopTesting
import Foundation
import Testing

/// The commit gate when the system goes away: held effects of states that
/// were never stored must end without running, and leave nothing behind.
@Suite("Hostile commit gate", .runsLeftoverJobs, .timeLimit(.minutes(1)))
struct HostileGateTests {
  @Test("G16 G9 effects held for an uncommitted state end without running when the system is stopped")
  func heldEffectsAtStop() async throws {
    let harness = DurableHarness()
    let payouts = Locked<[Int]>([])
    let account = try await harness.restore(feedbacks: [Account.payouts(started: payouts)])
    harness.journal.hold()
    account.send(.requestPayout(1))
    await harness.journal.waitForAppendCalls(1)
    #expect(harness.executor.runUntilIdle() == 0)  // held
    account.stop()
    harness.executor.runUntilIdle()
    #expect(payouts.withLock { $0 }.isEmpty)
    #expect(account.runningTaskCount == 0)
    #expect(harness.executor.pendingJobs == 0)
    harness.journal.release()
    try await account.waitForCommit()
    #expect(try await harness.storedEvents() == [.requestPayout(1)])
  }

  @Test("G16 G9 effects held for an uncommitted state end without running when the system is released")
  func heldEffectsAtRelease() async throws {
    let harness = DurableHarness()
    let payouts = Locked<[Int]>([])
    var account: DurableSystem<Account.State, Account.Event>? = try await harness.restore(feedbacks: [
      Account.payouts(started: payouts)
    ])
    harness.journal.hold()
    account?.send(.requestPayout(1))
    await harness.journal.waitForAppendCalls(1)
    #expect(harness.executor.runUntilIdle() == 0)
    account = nil
    harness.executor.runUntilIdle()
    #expect(payouts.withLock { $0 }.isEmpty)
    #expect(harness.executor.pendingJobs == 0)
    harness.journal.release()
    let other = try await harness.restore("other")
    try await other.sendDurably(.deposit(1))  // the writer is done with the released one
    #expect(try await harness.storedEvents() == [.requestPayout(1)])
    other.stop()
  }

  @Test("G16 an effect of a stored state that resumes after an await while a newer state is not stored waits for it")
  func resumedEffectWaitsForTheNewerCommit() async throws {
    let harness = DurableHarness()
    let (answers, answer) = AsyncStream<Int>.makeStream()
    let acted = Locked<[Int]>([])
    let payout = Feedback<Account.State, Account.Event>.query(\.pendingPayout) { amount in
      .run { _ in
        for await reply in answers {
          acted.withLock { $0.append(amount * reply) }
          return
        }
      }
    }
    let account = try await harness.restore(feedbacks: [payout])
    try await account.sendDurably(.requestPayout(3))
    harness.executor.runUntilIdle()  // started: it awaits its answer
    harness.journal.hold()
    account.send(.deposit(1))  // a newer state, not stored
    await harness.journal.waitForAppendCalls(2)
    answer.yield(10)
    #expect(harness.executor.runUntilIdle() == 0)  // its resumption is held
    #expect(acted.withLock { $0 }.isEmpty)
    harness.journal.release()
    try await account.waitForCommit()
    harness.executor.runUntilIdle()
    #expect(acted.withLock { $0 } == [30])
    account.stop()
  }

  @Test("G16 a restored state's effects start before anything is written: the restored state is committed")
  func restoredStateEffectsStartAtOnce() async throws {
    let harness = DurableHarness()
    let first = try await harness.restore()
    try await first.sendDurably(.requestPayout(4))
    first.stop()
    let payouts = Locked<[Int]>([])
    harness.journal.hold()  // nothing may be written while the effect starts
    let restored = try await harness.restore(feedbacks: [Account.payouts(started: payouts)])
    harness.executor.runUntilIdle()
    #expect(payouts.withLock { $0 } == [4])
    #expect(restored.state.paidOut == [4])
    #expect(restored.committedSequence == 1)
    harness.journal.release()
    try await restored.waitForCommit()
    #expect(try await harness.storedEvents() == [.requestPayout(4), .paidOut(4)])
    restored.stop()
  }
}
