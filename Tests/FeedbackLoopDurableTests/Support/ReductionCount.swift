import FeedbackLoop
import FeedbackLoopDurable
import FeedbackLoopTesting
import Foundation
import Testing

/// Resumes waiters once a number of reductions (and, if asked, discarded
/// events) have been reported, across every system it monitors: a test
/// knows its concurrent senders' events are queued, or refused, without
/// polling.
final class ReductionCount: Sendable {
  private struct Count {
    var value = 0
    var waiters: [(count: Int, waiter: CheckedContinuation<Void, Never>)] = []
  }
  private let count = Locked(Count())
  private let countsDiscards: Bool

  init(countingDiscards: Bool = false) {
    countsDiscards = countingDiscards
  }

  var monitor: SystemMonitor<Account.State, Account.Event> {
    SystemMonitor { [self] activity in
      switch activity {
      case .reduced: add()
      case .eventDiscarded where countsDiscards: add()
      default: break
      }
    }
  }

  var value: Int { count.withLock { $0.value } }

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
