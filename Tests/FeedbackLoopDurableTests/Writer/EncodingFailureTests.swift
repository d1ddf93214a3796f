import FeedbackLoop
import FeedbackLoopDurable
import FeedbackLoopTesting
import Foundation
import Testing

/// A record that does not encode ends the system's durability with an error
/// naming its sequence, and nothing of the append it would have joined is
/// stored. The writer takes a system's queued events without their
/// sequences (the first taken's is worked out from the count), so these
/// check that the sequence named is the record's own.
@Suite("Encoding failures", .runsLeftoverJobs, .timeLimit(.minutes(1)))
struct EncodingFailureTests {
  @Test("G16 an event that does not encode: the error names its sequence, its append stores nothing, the system stops")
  func eventFails() async throws {
    let harness = DurableHarness()
    let codec = RefusingCodec { ($0 as? DurableEnvelope<Account.Event>)?.value == .deposit(3) }
    let account = try await harness.restore(codec: codec)
    harness.journal.hold()
    account.send(.deposit(0))
    await harness.journal.waitForAppendCalls(1)
    for amount in 1...4 { account.send(.deposit(amount)) }  // sequences 2...5, deposit(3) the 4th
    harness.journal.release()
    await #expect(throws: DurableSystemError.self) { try await account.waitForCommit() }
    guard case .encodingFailed(let systemID, let sequence, let underlying) = account.failure else {
      Issue.record("failure: \(String(describing: account.failure))")
      return
    }
    #expect(systemID == "account")
    #expect(sequence == 4)
    #expect(underlying is RefusingCodec.Refused)
    #expect(try await harness.storedEvents() == [.deposit(0)])
    #expect(harness.writer.queuedEventCount == 0)
    account.stop()
  }

  @Test("G16 a snapshot that does not encode: the error names the snapshot's sequence, not its batch's last event's")
  func snapshotFails() async throws {
    let harness = DurableHarness()
    let codec = RefusingCodec { String(describing: type(of: $0)).hasPrefix("SnapshotEnvelope") }
    let account = try await harness.restore(snapshots: .every(3), codec: codec)
    harness.journal.hold()
    account.send(.deposit(0))
    await harness.journal.waitForAppendCalls(1)
    // Sequences 2...7: snapshots after 3 and 6; the take ends at 6.
    for amount in 1...6 { account.send(.deposit(amount)) }
    harness.journal.release()
    await #expect(throws: DurableSystemError.self) { try await account.waitForCommit() }
    guard case .encodingFailed(_, let sequence, _) = account.failure else {
      Issue.record("failure: \(String(describing: account.failure))")
      return
    }
    #expect(sequence == 6)
    #expect(try await harness.storedEvents() == [.deposit(0)])
    account.stop()
  }

  @Test("a take after a snapshot: the events after it are appended next, in order, with the next snapshot")
  func eventsAfterTheSnapshotFollow() async throws {
    let harness = DurableHarness()
    let account = try await harness.restore(snapshots: .every(4))
    harness.journal.hold()
    account.send(.deposit(0))
    await harness.journal.waitForAppendCalls(1)
    for amount in 1...10 { account.send(.deposit(amount)) }  // sequences 2...11; snapshots at 4 and 8
    harness.journal.release()
    try await account.waitForCommit()
    let calls = harness.journal.appendCalls.dropFirst()
    #expect(calls.map { $0.map(\.expectedSequence) } == [[1], [8]])
    #expect(calls.map { $0.map(\.events.count) } == [[7], [3]])
    #expect(calls.map { $0.map { $0.snapshot != nil } } == [[true], [false]])
    let history = try #require(try await harness.journal.base.load("account"))
    #expect(history.snapshot?.sequence == 8)
    #expect(history.events.map(\.sequence) == [9, 10, 11])
    let restored = try await harness.restore()
    #expect(restored.state.deposits == Array(0...10))
    account.stop()
    restored.stop()
  }

  @Test(
    "G16 a large batch is encoded on several threads: the error names the first event that does not encode, not a later one"
  )
  func largeBatchNamesItsFirstFailure() async throws {
    let harness = DurableHarness()
    // Sequences 2...1,001 in one take: deposit(300) is sequence 301, in
    // the split's first run, and deposit(950), in its last, fails too.
    let codec = RefusingCodec {
      guard let event = ($0 as? DurableEnvelope<Account.Event>)?.value else { return false }
      return event == .deposit(300) || event == .deposit(950)
    }
    let account = try await harness.restore(codec: codec)
    harness.journal.hold()
    account.send(.deposit(0))
    await harness.journal.waitForAppendCalls(1)
    for amount in 1...1_000 { account.send(.deposit(amount)) }
    harness.journal.release()
    await #expect(throws: DurableSystemError.self) { try await account.waitForCommit() }
    guard case .encodingFailed(_, let sequence, let underlying) = account.failure else {
      Issue.record("failure: \(String(describing: account.failure))")
      return
    }
    #expect(sequence == 301)
    #expect(underlying is RefusingCodec.Refused)
    #expect(try await harness.storedEvents() == [.deposit(0)])
    #expect(harness.writer.queuedEventCount == 0)
    account.stop()
  }

  @Test("a large batch encoded on several threads is stored whole and in order")
  func largeBatchIsStoredInOrder() async throws {
    let harness = DurableHarness()
    let account = try await harness.restore(codec: BinaryDurableCodec())
    harness.journal.hold()
    account.send(.deposit(0))
    await harness.journal.waitForAppendCalls(1)
    for amount in 1...1_000 { account.send(.deposit(amount)) }
    harness.journal.release()
    try await account.waitForCommit()
    #expect(harness.journal.appendCalls.dropFirst().map { $0.map(\.events.count) } == [[1_000]])
    let restored = try await harness.restore(codec: BinaryDurableCodec())
    #expect(restored.state.deposits == Array(0...1_000))
    account.stop()
    restored.stop()
  }

  @Test(
    "many systems' batches taken on several threads: one append, in the order they were ready, each system's events whole"
  )
  func manySystemsTakenTogether() async throws {
    let harness = DurableHarness()
    let first = try await harness.restore("first")
    var accounts: [DurableSystem<Account.State, Account.Event>] = []
    for index in 0..<20 { accounts.append(try await harness.restore("account-\(index)")) }
    harness.journal.hold()
    first.send(.deposit(0))
    await harness.journal.waitForAppendCalls(1)
    // 20 systems, 30 events each: 600 waiting, enough to spread the takes.
    for amount in 1...30 {
      for account in accounts { account.send(.deposit(amount)) }
    }
    harness.journal.release()
    for account in accounts { try await account.waitForCommit() }
    let calls = harness.journal.appendCalls.dropFirst()
    #expect(calls.count == 1)
    #expect(calls.first?.map(\.systemID) == accounts.map(\.id))
    #expect(calls.first?.map(\.events.count) == Array(repeating: 30, count: 20))
    for account in accounts {
      let restored = try await harness.restore(account.id)
      #expect(restored.state.deposits == Array(1...30), "\(account.id)")
      restored.stop()
      account.stop()
    }
    first.stop()
  }

  @Test(
    "G16 many systems taken on several threads, one of which does not encode: it alone fails, the others are stored")
  func oneOfManySystemsFails() async throws {
    let harness = DurableHarness()
    let first = try await harness.restore("first")
    let refusing = RefusingCodec { ($0 as? DurableEnvelope<Account.Event>)?.value == .deposit(15) }
    var accounts: [DurableSystem<Account.State, Account.Event>] = []
    for index in 0..<20 {
      accounts.append(try await harness.restore("account-\(index)", codec: index == 7 ? refusing : JSONDurableCodec()))
    }
    harness.journal.hold()
    first.send(.deposit(0))
    await harness.journal.waitForAppendCalls(1)
    for amount in 1...30 {
      for account in accounts { account.send(.deposit(amount)) }
    }
    harness.journal.release()
    for (index, account) in accounts.enumerated() {
      if index == 7 {
        await #expect(throws: DurableSystemError.self) { try await account.waitForCommit() }
        guard case .encodingFailed(let systemID, let sequence, _) = account.failure else {
          Issue.record("failure: \(String(describing: account.failure))")
          continue
        }
        #expect(systemID == "account-7")
        #expect(sequence == 15)
      } else {
        try await account.waitForCommit()
        #expect(account.committedSequence == 30, "\(account.id)")
      }
    }
    #expect(harness.writer.queuedEventCount == 0)
    for account in accounts { account.stop() }
    first.stop()
  }
}
