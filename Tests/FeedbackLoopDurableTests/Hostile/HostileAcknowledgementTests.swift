import Dispatch
import FeedbackLoop
import FeedbackLoopDurable
import FeedbackLoopTesting
import Foundation
import Testing

// The suite's time limit below catches a hang, not slowness: these tests
// take about a second alone, but share the one test process's two-thread
// cooperative pool with every other suite, and on a loaded two-core machine
// they finished after 104 to 140 s (past a one-minute limit, which failed
// them).

/// Callers of `sendDurably` and `waitForCommit` in the hardest places: behind
/// a busy loop, with an `Input` bound, in thousands, cancelled, from inside an
/// effect.
@Suite("Hostile acknowledgements", .runsLeftoverJobs, .timeLimit(.minutes(5)))
struct HostileAcknowledgementTests {
  @Test("G16 sendDurably returns only once its own event is stored, while an Input's events are reduced")
  func inputEventsDoNotAcknowledgeAnotherCaller() async throws {
    let harness = DurableHarness()
    let buttons = Input<Account.Event>()
    let account = try await harness.restore(feedbacks: [.input(buttons)])
    // The loop stays busy on another thread, in an observer, right after
    // the Input's event is reduced: a caller's send is then queued behind it.
    let loopIsBusy = DispatchSemaphore(value: 0)
    let letLoopGo = DispatchSemaphore(value: 0)
    let observation = account.observe { state in
      if state.deposits == [1] {
        loopIsBusy.signal()
        letLoopGo.wait()
      }
    }
    let inputThreadDone = DispatchSemaphore(value: 0)
    Thread {
      buttons.send(.deposit(1))
      inputThreadDone.signal()
    }.start()
    await wait(for: loopIsBusy)
    try await account.waitForCommit()  // the Input's event is stored
    #expect(account.committedSequence == 1)

    let callerExecutor = ManualTaskExecutor()
    let sequenceAtAcknowledgement = Locked<UInt64?>(nil)
    let caller = Task(executorPreference: callerExecutor) {
      try await account.sendDurably(.deposit(2))
      sequenceAtAcknowledgement.withLock { $0 = account.committedSequence }
    }
    callerExecutor.runUntilIdle()
    // The caller's event waits behind the busy loop: it is not reduced, so it
    // cannot be stored, and its caller must still be waiting.
    #expect(account.state.deposits == [1])
    #expect(sequenceAtAcknowledgement.withLock { $0 } == nil)

    letLoopGo.signal()
    await wait(for: inputThreadDone)  // the busy thread drained the caller's event
    try await account.waitForCommit()
    callerExecutor.runUntilIdle()
    try await caller.value
    #expect(try await harness.storedEvents() == [.deposit(1), .deposit(2)])
    observation.cancel()
    account.stop()
  }

  @Test(
    "G16 G2 thousands of callers from many threads, a third of them cancelled: each acknowledged event is stored once")
  func thousandsOfCallersSomeCancelled() async throws {
    let harness = DurableHarness()
    let account = try await harness.restore(snapshots: .every(97))
    let acknowledged = Locked<[Int]>([])
    let cancelled = Locked(0)
    await withTaskGroup(of: Void.self) { group in
      for sender in 0..<16 {
        group.addTask {
          await withTaskGroup(of: Void.self) { callers in
            for step in 0..<250 {
              let amount = sender * 1000 + step
              let caller = Task {
                do {
                  try await account.sendDurably(.deposit(amount))
                  acknowledged.withLock { $0.append(amount) }
                } catch is CancellationError {
                  cancelled.withLock { $0 += 1 }
                } catch {
                  Issue.record("unexpected \(error)")
                }
              }
              if step % 3 == 0 { caller.cancel() }
              callers.addTask { await caller.value }
            }
          }
        }
      }
    }
    try await account.waitForCommit()
    #expect(account.committedSequence == 16 * 250)
    #expect(acknowledged.withLock { $0.count } + cancelled.withLock { $0 } == 16 * 250)
    // The journal holds a snapshot and the events after it: a restore has
    // every event once, and each acknowledged one.
    let restored = try await harness.restore()
    #expect(restored.state == account.state)
    #expect(restored.state.deposits.count == 16 * 250)
    #expect(Set(restored.state.deposits).count == 16 * 250)
    let storedAmounts = Set(restored.state.deposits)
    for amount in acknowledged.withLock({ $0 }) where !storedAmounts.contains(amount) {
      Issue.record("acknowledged \(amount) is not stored")
    }
    account.stop()
    restored.stop()
  }

  @Test(
    "G16 an effect that awaits sendDurably of its own event is acknowledged, without a deadlock on the held executor")
  func sendDurablyFromInsideAnEffect() async throws {
    let harness = DurableHarness()
    let box = Locked<DurableSystem<Account.State, Account.Event>?>(nil)
    let acknowledged = Locked<[Int]>([])
    let payout = Feedback<Account.State, Account.Event>.query(\.pendingPayout) { amount in
      .run { _ in
        guard let account = box.withLock({ $0 }) else { return }
        // Not `.paidOut`: that would end the query, and cancel this effect.
        try await account.sendDurably(.deposit(amount))
        try await account.waitForCommit()
        acknowledged.withLock { $0.append(amount) }
      }
    }
    let account = try await harness.restore(feedbacks: [payout])
    box.withLock { $0 = account }
    try await account.sendDurably(.requestPayout(5))
    harness.executor.runUntilIdle()  // the effect sends its deposit and waits
    try await account.waitForCommit()
    harness.executor.runUntilIdle()  // its acknowledgement, then its commit wait
    try await account.waitForCommit()
    harness.executor.runUntilIdle()
    #expect(acknowledged.withLock { $0 } == [5])
    #expect(try await harness.storedEvents() == [.requestPayout(5), .deposit(5)])
    box.withLock { $0 = nil }
    account.stop()
  }

  @Test("G9 a journal whose append never returns: stop returns, and a waiting caller ends when cancelled")
  func appendThatNeverReturns() async throws {
    let harness = DurableHarness()
    let account = try await harness.restore()
    harness.journal.hold()  // never released while the system lives
    let caller = Task { try await account.sendDurably(.deposit(1)) }
    await harness.journal.waitForAppendCalls(1)
    account.stop()
    #expect(account.isStopped)
    await #expect(throws: DurableSystemError.self) { try await account.sendDurably(.deposit(2)) }
    caller.cancel()
    await #expect(throws: CancellationError.self) { try await caller.value }
    #expect(account.committedSequence == 0)
    harness.journal.release()
    try await account.waitForCommit()
    #expect(try await harness.storedEvents() == [.deposit(1)])
  }

  @Test(
    """
    G16 G2 sendDurably, plain sends and Input sends from many threads, an Input sending from inside the loop, \
    callers cancelled: each acknowledged event is stored once, and committed when acknowledged
    """)
  func interleavedSendersWithInputs() async throws {
    let harness = DurableHarness()
    let buttons = Input<Account.Event>()
    // Inside the loop, after each reduction of a durable caller's event: an
    // Input's event, queued among the callers' (a negative amount).
    let echo = Feedback<Account.State, Account.Event>.onEvent { event, _ in
      if case .deposit(let amount) = event, amount > 0, amount % 10 == Kind.durable.rawValue {
        buttons.send(.deposit(-amount))
      }
      return .none
    }
    let account = try await harness.restore(feedbacks: [.input(buttons), echo])
    let perSender = 300
    // The sequence committed when each caller was answered, by amount.
    let acknowledged = Locked<[Int: UInt64]>([:])
    let cancelled = Locked(0)
    let senders: [(Kind, Int)] = [
      (.durable, 0), (.durable, 1), (.durable, 2), (.durable, 3), (.plain, 4), (.plain, 5), (.input, 6), (.input, 7),
    ]
    await withTaskGroup(of: Void.self) { group in
      for (kind, sender) in senders {
        group.addTask {
          for step in 1...perSender {
            let amount = (sender * 10_000 + step) * 10 + kind.rawValue
            switch kind {
            case .plain: account.send(.deposit(amount))
            case .input: buttons.send(.deposit(amount))
            case .durable:
              let caller = Task {
                do {
                  try await account.sendDurably(.deposit(amount))
                  let committed = account.committedSequence
                  acknowledged.withLock { $0[amount] = committed }
                } catch is CancellationError {
                  cancelled.withLock { $0 += 1 }
                } catch {
                  Issue.record("unexpected \(error)")
                }
              }
              if step % 7 == 0 { caller.cancel() }
              await caller.value
            }
          }
        }
      }
    }
    try await account.waitForCommit()
    let durableCount = 4 * perSender
    let total = 2 * durableCount + 4 * perSender  // each durable deposit has its echo
    #expect(account.committedSequence == UInt64(total))
    #expect(acknowledged.withLock { $0.count } + cancelled.withLock { $0 } == durableCount)
    let stored = Account.fold(try await harness.storedEvents())
    #expect(stored.deposits.count == total)
    #expect(Set(stored.deposits).count == total)
    #expect(stored == account.state)
    // G2: each sender's events are reduced in the order it sent them.
    for (_, sender) in senders {
      let own = stored.deposits.filter { $0 > 0 && $0 / 10 / 10_000 == sender }
      #expect(own == own.sorted(), "sender \(sender)'s events out of order")
      #expect(own.count == perSender)
    }
    // An acknowledged event was committed when its caller was answered: its
    // position in the journal is at most the sequence committed then.
    let positions = Dictionary(
      uniqueKeysWithValues: stored.deposits.enumerated().map { ($1, UInt64($0 + 1)) })
    for (amount, committed) in acknowledged.withLock({ $0 }) {
      guard let position = positions[amount] else {
        Issue.record("acknowledged \(amount) is not stored")
        continue
      }
      #expect(position <= committed, "\(amount) acknowledged at \(committed), stored at \(position)")
    }
    account.stop()
  }

  @Test("G16 G9 callers sending while another thread stops the system: each acknowledged event is stored once")
  func sendsDuringStop() async throws {
    for round in 0..<20 {
      let harness = DurableHarness()
      let buttons = Input<Account.Event>()
      let account = try await harness.restore(feedbacks: [.input(buttons)])
      let acknowledged = Locked<[Int]>([])
      await withTaskGroup(of: Void.self) { group in
        for sender in 0..<4 {
          group.addTask {
            for step in 0..<50 {
              let amount = sender * 1000 + step + 1
              if step == 10, sender == 0 {
                // Another thread: an Input's events, then the stop.
                DispatchQueue.global().async {
                  for step in 0..<50 { buttons.send(.deposit(-step - 1)) }
                  account.stop()
                }
              }
              do {
                try await account.sendDurably(.deposit(amount))
                acknowledged.withLock { $0.append(amount) }
              } catch let error as DurableSystemError {
                guard case .stopped = error else {
                  Issue.record("unexpected \(error)")
                  return
                }
              } catch {
                Issue.record("unexpected \(error)")
              }
              account.send(.deposit(-1000 - amount))
            }
          }
        }
      }
      try await account.waitForCommit()
      let stored = try await harness.storedEvents()
      let amounts = Account.fold(stored).deposits
      #expect(amounts.count == Set(amounts).count, "round \(round): an event stored twice")
      #expect(Account.fold(stored) == account.state, "round \(round)")
      for amount in acknowledged.withLock({ $0 }) where !stored.contains(.deposit(amount)) {
        Issue.record("round \(round): acknowledged \(amount) is not stored")
      }
    }
  }

  /// Who sends an event in the interleaved test: its amount's last digit.
  private enum Kind: Int {
    case durable = 1
    case plain = 2
    case input = 3
  }

  /// Waits for `semaphore` on a thread of its own, not the test's, nor
  /// one of Dispatch's: Swift's tasks run on Dispatch's worker threads, so
  /// a worker blocked here is one fewer for them until Dispatch notices.
  private func wait(for semaphore: DispatchSemaphore) async {
    await withCheckedContinuation { continuation in
      Thread {
        semaphore.wait()
        continuation.resume()
      }.start()
    }
  }
}
