import FeedbackLoop
import FeedbackLoopDurable
import FeedbackLoopTesting
import Foundation
import Testing

@Suite("One writer (G17)", .runsLeftoverJobs, .timeLimit(.minutes(1)))
struct OneWriterTests {
  @Test("G17 an owner is refused by the journal once another restores the id, names the epochs, stops, merges nothing")
  func earlierOwnerIsRefused() async throws {
    let harness = DurableHarness()
    let earlier = try await harness.restore()
    // Another process restores the same id from the same journal, with a
    // writer of its own: it claims the id, and owns it from now on.
    let owner = try await harness.restore(writer: JournalWriter(journal: harness.journal))
    #expect((earlier.epoch, owner.epoch) == (1, 2))

    // The earlier owner appends first, expecting the stored sequence (0).
    let error = await #expect(throws: DurableSystemError.self) { try await earlier.sendDurably(.deposit(500)) }
    guard case .refusedByJournal(let conflict) = error else {
      Issue.record("expected refusedByJournal, got \(String(describing: error))")
      return
    }
    #expect(
      conflict
        == SequenceConflict(
          systemID: "account", expectedSequence: 0, storedSequence: 0, writerEpoch: 1, storedEpoch: 2))
    #expect(conflict.isFenced)
    #expect("\(error!)".contains("refused an append of epoch 1, since the system was claimed again (its epoch is 2"))
    #expect(earlier.isStopped)
    #expect(earlier.failure != nil)
    #expect(harness.logs.records.contains { $0.level == .error && $0.message.contains("refused an append") })
    await #expect(throws: DurableSystemError.self) { try await earlier.sendDurably(.deposit(1)) }

    // The owner goes on; the journal holds only its events.
    try await owner.sendDurably(.deposit(1))
    try await owner.sendDurably(.deposit(2))
    #expect(try await harness.storedEvents() == [.deposit(1), .deposit(2)])
    owner.stop()
  }

  @Test("G17 an owner whose expected sequence is stale at its own epoch is refused with the sequence conflict")
  func staleSequenceAtTheCurrentEpoch() async throws {
    let harness = DurableHarness()
    let owner = try await harness.restore()
    // A tool writes to the claimed id at the owner's epoch behind its back.
    _ = try await harness.journal.append([
      JournalBatch(systemID: "account", epoch: owner.epoch, expectedSequence: 0, events: [Data("{}".utf8)])
    ])
    let error = await #expect(throws: DurableSystemError.self) { try await owner.sendDurably(.deposit(1)) }
    guard case .refusedByJournal(let conflict) = error else {
      Issue.record("expected refusedByJournal, got \(String(describing: error))")
      return
    }
    #expect(!conflict.isFenced)
    #expect("\(error!)".contains("another owner is writing to this system"))
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
