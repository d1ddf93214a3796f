import FeedbackLoop
import FeedbackLoopTesting
import Foundation
import Logging
import Testing

@testable import FeedbackLoopDurable

/// Callers cancelled at the worst moment: after their answer, before they
/// return.
@Suite("Hostile cancellation", .runsLeftoverJobs, .timeLimit(.minutes(1)))
struct HostileCancellationTests {
  @Test("a caller cancelled after its commit was answered, before it returns, leaves nothing behind in the ledger")
  func cancelledAfterTheAnswer() async throws {
    let journal = HeldJournal()
    let callerExecutor = ManualTaskExecutor()
    let ledger = DurableLedger<Int, Int>(
      systemID: "s", epoch: 0, writer: JournalWriter(journal: journal),
      gate: CommitGate(underlying: ManualTaskExecutor(), committed: 0), committed: 0, codec: JSONDurableCodec(),
      schemaVersion: 1, snapshots: .never, logger: Logger(label: "test"))
    journal.hold()
    ledger.didReduce(1, state: 1, isCountedSend: false)
    await journal.waitForAppendCalls(1)
    let caller = Task(executorPreference: callerExecutor) { try await ledger.waitForCommit() }
    callerExecutor.runUntilIdle()  // it waits for sequence 1
    journal.release()
    // Registered after the caller, answered after it by the same commit: the
    // caller's answer is then queued on its executor, not yet run.
    #expect(try await ledger.waitForCommit() == 1)
    caller.cancel()
    callerExecutor.runUntilIdle()
    #expect(try await caller.value == 1)
    #expect(ledger.keptWaiterIDCount == 0)
    ledger.systemStopped()
  }

  @Test("thousands of callers, half of them cancelled at any moment: every event is stored once")
  func manyCancelledCallers() async throws {
    let harness = DurableHarness()
    let account = try await harness.restore()
    await withTaskGroup(of: Void.self) { group in
      for amount in 0..<2_000 {
        let caller = Task { try? await account.sendDurably(.deposit(amount)) }
        if amount % 2 == 0 { caller.cancel() }
        group.addTask { await caller.value }
      }
    }
    try await account.waitForCommit()
    #expect(account.committedSequence == 2_000)
    account.stop()
  }
}
