import FeedbackLoop
import FeedbackLoopDurable
import FeedbackLoopTesting
import Foundation
import Testing

@Suite("Snapshots", .runsLeftoverJobs, .timeLimit(.minutes(1)))
struct SnapshotTests {
  @Test("a snapshot every n events: a restore reads the snapshot and fewer than n events, and has the same state")
  func everyNEvents() async throws {
    let harness = DurableHarness()
    let account = try await harness.restore(snapshots: .every(5))
    var events: [Account.Event] = []
    for amount in 1...23 {
      events.append(.deposit(amount))
      try await account.sendDurably(.deposit(amount))
    }
    account.stop()
    let history = try #require(try await harness.journal.base.load("account"))
    #expect(history.snapshot?.sequence == 20)
    #expect(history.events.map(\.sequence) == [21, 22, 23])
    let restored = try await harness.restore(snapshots: .every(5))
    #expect(restored.state == Account.fold(events))
    #expect(restored.committedSequence == 23)
    restored.stop()
  }

  @Test(
    "a snapshot taken in the middle of a group-committed batch is stored with the events up to it, the rest appended next"
  )
  func snapshotInsideABatch() async throws {
    let harness = DurableHarness()
    let account = try await harness.restore(snapshots: .every(3))
    harness.journal.hold()
    account.send(.deposit(0))
    await harness.journal.waitForAppendCalls(1)
    for amount in 1...4 { account.send(.deposit(amount)) }  // sequences 2...5; the snapshot at 3
    harness.journal.release()
    try await account.waitForCommit()
    // The events after the snapshot go in the next append, never in a
    // second batch of the same call (a refused first batch would leave the
    // second checked against another owner's sequence: G17).
    let calls = harness.journal.appendCalls.dropFirst()
    #expect(calls.map { $0.map(\.expectedSequence) } == [[1], [3]])
    #expect(calls.map { $0.map { $0.snapshot != nil } } == [[true], [false]])
    let history = try #require(try await harness.journal.base.load("account"))
    #expect(history.snapshot?.sequence == 3)
    #expect(history.events.map(\.sequence) == [4, 5])
    let restored = try await harness.restore()
    #expect(restored.state.deposits == [0, 1, 2, 3, 4])
    account.stop()
    restored.stop()
  }

  @Test("a snapshot predicate decides after which states a snapshot is stored")
  func predicate() async throws {
    let harness = DurableHarness()
    let account = try await harness.restore(snapshots: .when { state, _ in state.pendingPayout != nil })
    try await account.sendDurably(.deposit(4))
    try await account.sendDurably(.requestPayout(1))
    try await account.sendDurably(.paidOut(1))
    account.stop()
    let history = try #require(try await harness.journal.base.load("account"))
    #expect(history.snapshot?.sequence == 2)
    #expect(history.events.map(\.sequence) == [3])
  }
}
