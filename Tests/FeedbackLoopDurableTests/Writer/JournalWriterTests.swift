import FeedbackLoop
import FeedbackLoopDurable
import FeedbackLoopTesting
import Foundation
import Testing

@Suite("Journal writer", .runsLeftoverJobs, .timeLimit(.minutes(1)))
struct JournalWriterTests {
  @Test("group commit: the events of three systems, sent while an append runs, land in one append call")
  func groupCommit() async throws {
    let harness = DurableHarness()
    let opener = try await harness.restore("opener")
    let systems = [
      try await harness.restore("a"), try await harness.restore("b"), try await harness.restore("c"),
    ]
    harness.journal.hold()
    opener.send(.deposit(1))
    await harness.journal.waitForAppendCalls(1)
    for (index, system) in systems.enumerated() {
      system.send(.deposit(index))
      system.send(.deposit(index + 10))
    }
    harness.journal.release()
    for system in systems { try await system.waitForCommit() }
    let calls = harness.journal.appendCalls
    #expect(calls.count == 2)
    #expect(calls.last?.map(\.systemID) == ["a", "b", "c"])
    #expect(calls.last?.map(\.events.count) == [2, 2, 2])
    for system in systems + [opener] { system.stop() }
  }

  @Test(
    "G14 a writer whose queue is full refuses new events before they are reduced, and takes them again once it drains")
  func boundedQueueRefusesAtTheDoor() async throws {
    let harness = DurableHarness(queue: .refuseNewEvents(limit: 2))
    let discarded = Locked<[Account.Event]>([])
    let monitor = SystemMonitor<Account.State, Account.Event> { activity in
      if case .eventDiscarded(let event, let reason) = activity, reason == .bufferFull {
        discarded.withLock { $0.append(event) }
      }
    }
    let account = try await harness.restore(monitor: monitor)
    harness.journal.hold()
    account.send(.deposit(1))
    await harness.journal.waitForAppendCalls(1)  // the writer took it
    account.send(.deposit(2))
    account.send(.deposit(3))
    #expect(harness.writer.queuedEventCount == 2)
    account.send(.deposit(4))
    let error = await #expect(throws: DurableSystemError.self) { try await account.sendDurably(.deposit(5)) }
    guard case .writerQueueFull(systemID: "account") = error else {
      Issue.record("expected writerQueueFull, got \(String(describing: error))")
      return
    }
    #expect(account.state.deposits == [1, 2, 3])
    #expect(discarded.withLock { $0 } == [.deposit(4), .deposit(5)])

    harness.journal.release()
    try await account.waitForCommit()
    #expect(harness.writer.queuedEventCount == 0)
    try await account.sendDurably(.deposit(6))
    #expect(try await harness.storedEvents() == [1, 2, 3, 6].map(Account.Event.deposit))
    account.stop()
  }

  @Test("an unbounded writer takes every event, however many wait")
  func unboundedQueue() async throws {
    let harness = DurableHarness(queue: .unbounded)
    let account = try await harness.restore()
    harness.journal.hold()
    account.send(.deposit(0))
    await harness.journal.waitForAppendCalls(1)
    for amount in 1...1000 { account.send(.deposit(amount)) }
    #expect(harness.writer.queuedEventCount == 1000)
    harness.journal.release()
    try await account.waitForCommit()
    #expect(account.committedSequence == 1001)
    #expect(harness.journal.appendCalls.count == 2)
    account.stop()
  }
}
