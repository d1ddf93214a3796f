import FeedbackLoop
import FeedbackLoopDurable
import FeedbackLoopTesting
import Foundation
import Testing

@Suite("Journal failures", .runsLeftoverJobs, .timeLimit(.minutes(1)))
struct JournalFailureTests {
  @Test(
    "G16 a journal that fails: the system stops acknowledging, callers get the error, nothing acknowledged is lost, a restore recovers"
  )
  func failureThenRecovery() async throws {
    let harness = DurableHarness()
    let account = try await harness.restore()
    try await account.sendDurably(.deposit(1))
    harness.journal.base.failAppends()

    let error = await #expect(throws: DurableSystemError.self) { try await account.sendDurably(.deposit(2)) }
    guard case .journalFailed(systemID: "account", let underlying) = error else {
      Issue.record("expected journalFailed, got \(String(describing: error))")
      return
    }
    #expect(underlying is InMemoryJournal.InjectedFailure)
    #expect("\(error!)".contains("they are not acknowledged"))
    #expect(account.isStopped)
    // It does not lie afterwards either.
    await #expect(throws: DurableSystemError.self) { try await account.sendDurably(.deposit(3)) }
    await #expect(throws: DurableSystemError.self) { try await account.waitForCommit() }
    #expect(account.committedSequence == 1)

    // While the journal fails, a restore still reads what it has.
    let whileFailing = try await harness.restore()
    #expect(whileFailing.state.deposits == [1])
    whileFailing.stop()

    harness.journal.base.stopFailing()
    let recovered = try await harness.restore()
    #expect(recovered.state.deposits == [1])
    try await recovered.sendDurably(.deposit(4))
    #expect(try await harness.storedEvents() == [.deposit(1), .deposit(4)])
    recovered.stop()
  }

  @Test("a failure reaches every caller waiting, whether their event was reduced or not")
  func failureReachesEveryWaiter() async throws {
    let harness = DurableHarness()
    let account = try await harness.restore()
    harness.journal.hold()
    harness.journal.base.failNextAppend()
    let first = Task { try await account.sendDurably(.deposit(1)) }
    let second = Task { try await account.sendDurably(.deposit(2)) }
    await harness.journal.waitForAppendCalls(1)
    let all = Task { try await account.waitForCommit() }  // an event is reduced: it waits
    harness.journal.release()
    await #expect(throws: DurableSystemError.self) { try await first.value }
    await #expect(throws: DurableSystemError.self) { try await second.value }
    await #expect(throws: DurableSystemError.self) { try await all.value }
    #expect(try await harness.storedEvents().isEmpty)
  }
}

@Suite("Cancelled callers", .runsLeftoverJobs, .timeLimit(.minutes(1)))
struct CancelledCallerTests {
  @Test("a caller whose task is cancelled stops waiting with CancellationError; its event is still stored")
  func cancelledWhileWaiting() async throws {
    let harness = DurableHarness()
    let account = try await harness.restore()
    harness.journal.hold()
    let caller = Task { try await account.sendDurably(.deposit(1)) }
    await harness.journal.waitForAppendCalls(1)
    caller.cancel()
    await #expect(throws: CancellationError.self) { try await caller.value }
    let waiting = Task { try await account.waitForCommit() }
    waiting.cancel()
    await #expect(throws: CancellationError.self) { try await waiting.value }
    harness.journal.release()
    try await account.waitForCommit()
    #expect(try await harness.storedEvents() == [.deposit(1)])
    account.stop()
  }

  @Test("a caller cancelled before it sends still sends, and does not wait")
  func cancelledBeforeSending() async throws {
    let harness = DurableHarness()
    let account = try await harness.restore()
    harness.journal.hold()
    let caller = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      try await account.sendDurably(.deposit(2))
    }
    await #expect(throws: CancellationError.self) { try await caller.value }
    #expect(account.state.deposits == [2])
    harness.journal.release()
    try await account.waitForCommit()
    #expect(try await harness.storedEvents() == [.deposit(2)])
    account.stop()
  }
}
