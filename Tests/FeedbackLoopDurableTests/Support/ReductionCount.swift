import FeedbackLoop
import FeedbackLoopDurable
import FeedbackLoopTesting
import Foundation
import Testing

/// Resumes waiters once a number of reductions have been reported: a test
/// knows its concurrent senders' events are queued without polling.
final class ReductionCount: Sendable {
  private struct Count {
    var value = 0
    var waiters: [(count: Int, waiter: CheckedContinuation<Void, Never>)] = []
  }
  private let count = Locked(Count())

  var monitor: SystemMonitor<Account.State, Account.Event> {
    SystemMonitor { [self] activity in
      if case .reduced = activity { add() }
    }
  }

  private func add() {
    let reached = count.withLock { count -> [CheckedContinuation<Void, Never>] in
      count.value += 1
      var reached: [CheckedContinuation<Void, Never>] = []
      count.waiters.removeAll { entry in
        guard entry.count <= count.value else { return false }
        reached.append(entry.waiter)
        return true
      }
      return reached
    }
    for waiter in reached { waiter.resume() }
  }

  func wait(for target: Int) async {
    await withCheckedContinuation { waiter in
      let reached = count.withLock { count in
        if count.value >= target { return true }
        count.waiters.append((target, waiter))
        return false
      }
      if reached { waiter.resume() }
    }
  }
}
