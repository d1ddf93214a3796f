import FeedbackLoop
import FeedbackLoopDurable
import FeedbackLoopTesting
import Foundation
import Testing

@Suite("Sends from everywhere", .runsLeftoverJobs, .timeLimit(.minutes(1)))
struct HostileSendTests {
  @Test("G16 events sent by feedbacks and observers while a commit is pending are all stored, in the order reduced")
  func sendsFromFeedbacksAndObserversDuringACommit() async throws {
    let harness = DurableHarness()
    let reduced = Locked<[Account.Event]>([])
    let monitor = SystemMonitor<Account.State, Account.Event> { activity in
      if case .reduced(let event, _, _, _) = activity { reduced.withLock { $0.append(event) } }
    }
    // A feedback answers every large deposit with a small one, at once.
    let echo = Feedback<Account.State, Account.Event>.onEvent { event, _ in
      guard case .deposit(let amount) = event, amount >= 100 else { return .none }
      return .send(.deposit(amount / 100))
    }
    let account = try await harness.restore(feedbacks: [echo], monitor: monitor)
    // An observer that sends too, from inside the loop.
    let observation = account.observe { [weak account] state in
      if state.deposits.last == 3 { account?.send(.deposit(7)) }
    }
    harness.journal.hold()
    account.send(.deposit(100))
    await harness.journal.waitForAppendCalls(1)
    account.send(.deposit(300))
    account.send(.deposit(5))
    harness.journal.release()
    try await account.sendDurably(.deposit(9))
    try await account.waitForCommit()
    observation.cancel()

    let expected: [Account.Event] = [100, 1, 300, 3, 7, 5, 9].map(Account.Event.deposit)
    #expect(reduced.withLock { $0 } == expected)
    #expect(try await harness.storedEvents() == expected)
    let restored = try await harness.restore()
    #expect(restored.state == account.state)
    account.stop()
    restored.stop()
  }

  @Test("G16 G2 sendDurably from many tasks at once: every acknowledged event is stored once, without gaps")
  func sendsFromManyTasks() async throws {
    let harness = DurableHarness()
    let account = try await harness.restore(snapshots: .every(64))
    await withThrowingTaskGroup(of: Void.self) { group in
      for sender in 0..<8 {
        group.addTask {
          for step in 0..<50 { try await account.sendDurably(.deposit(sender * 1000 + step)) }
        }
      }
    }
    try await account.waitForCommit()
    #expect(account.committedSequence == 400)
    #expect(account.state.deposits.count == 400)
    for sender in 0..<8 {
      let own = account.state.deposits.filter { $0 / 1000 == sender }
      #expect(own == (0..<50).map { sender * 1000 + $0 })
    }
    let restored = try await harness.restore()
    #expect(restored.state == account.state)
    account.stop()
    restored.stop()
  }

  @Test("G16 G9 sends racing a stop: each caller is acknowledged or told, and the journal has what the system reduced")
  func sendsDuringStop() async throws {
    let harness = DurableHarness()
    let account = try await harness.restore()
    let acknowledged = Locked<[Int]>([])
    await withTaskGroup(of: Void.self) { group in
      for sender in 0..<4 {
        group.addTask {
          for step in 0..<100 {
            let amount = sender * 1000 + step
            do {
              try await account.sendDurably(.deposit(amount))
              acknowledged.withLock { $0.append(amount) }
            } catch {
              guard let error = error as? DurableSystemError, case .stopped = error else {
                Issue.record("unexpected \(error)")
                return
              }
            }
          }
        }
      }
      group.addTask {
        await Task.yield()
        account.stop()
      }
    }
    try await account.waitForCommit()
    let stored = try await harness.storedEvents()
    #expect(stored == account.state.deposits.map(Account.Event.deposit))
    let storedAmounts = Set(account.state.deposits)
    for amount in acknowledged.withLock({ $0 }) { #expect(storedAmounts.contains(amount)) }
    let restored = try await harness.restore()
    #expect(restored.state == account.state)
    restored.stop()
  }
}
