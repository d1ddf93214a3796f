import FeedbackLoop
import FeedbackLoopDurable
import FeedbackLoopTesting
import Foundation
import Testing

@Suite("One writer (G17)", .runsLeftoverJobs, .timeLimit(.minutes(1)))
struct OneWriterTests {
  @Test("G17 a second owner of one id is refused by the journal with a clear error, stops, and nothing is merged")
  func secondOwnerIsRefused() async throws {
    let harness = DurableHarness()
    let first = try await harness.restore()
    // Another process restores the same id from the same journal, with a
    // writer of its own.
    let second = try await harness.restore(writer: JournalWriter(journal: harness.journal))
    try await first.sendDurably(.deposit(1))

    let error = await #expect(throws: DurableSystemError.self) { try await second.sendDurably(.deposit(500)) }
    guard case .refusedByJournal(let conflict) = error else {
      Issue.record("expected refusedByJournal, got \(String(describing: error))")
      return
    }
    #expect(conflict == SequenceConflict(systemID: "account", expectedSequence: 0, storedSequence: 1))
    #expect("\(error!)".contains("another owner is writing to this system"))
    #expect(second.isStopped)
    #expect(second.failure != nil)
    #expect(harness.logs.records.contains { $0.level == .error && $0.message.contains("refused an append") })
    await #expect(throws: DurableSystemError.self) { try await second.sendDurably(.deposit(1)) }

    // The first owner goes on; the journal holds only its events.
    try await first.sendDurably(.deposit(2))
    #expect(try await harness.storedEvents() == [.deposit(1), .deposit(2)])
    first.stop()
  }

  @Test("G17 a stale owner (restored before another wrote) is refused on its first append")
  func staleOwnerIsRefused() async throws {
    let harness = DurableHarness()
    let stale = try await harness.restore()
    let current = try await harness.restore(writer: JournalWriter(journal: harness.journal))
    try await current.sendDurably(.deposit(1))
    stale.send(.deposit(9))
    await #expect(throws: DurableSystemError.self) { try await stale.waitForCommit() }
    #expect(stale.isStopped)
    #expect(try await harness.storedEvents() == [.deposit(1)])
    current.stop()
  }
}
