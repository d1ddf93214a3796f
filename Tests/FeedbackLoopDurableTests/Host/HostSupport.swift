import FeedbackLoop
import FeedbackLoopDurable
import FeedbackLoopTesting
import Foundation

/// A door that tasks wait at until the test opens it, and that tells the
/// test how many have arrived: a restore that has not finished yet, without
/// a sleep.
final class Door: Sendable {
  private struct Inside {
    var isOpen = false
    var waiting: [CheckedContinuation<Void, Never>] = []
    var arrivals = 0
    var arrivalWaiters: [(count: Int, waiter: CheckedContinuation<Void, Never>)] = []
  }

  private let inside = Locked(Inside())

  /// Waits until the door opens (at once when it is open).
  func pass() async {
    await withCheckedContinuation { waiter in
      let (passes, arrived) = inside.withLock { inside -> (Bool, [CheckedContinuation<Void, Never>]) in
        inside.arrivals += 1
        let count = inside.arrivals
        var arrived: [CheckedContinuation<Void, Never>] = []
        inside.arrivalWaiters.removeAll { entry in
          guard entry.count <= count else { return false }
          arrived.append(entry.waiter)
          return true
        }
        if !inside.isOpen { inside.waiting.append(waiter) }
        return (inside.isOpen, arrived)
      }
      for waiter in arrived { waiter.resume() }
      if passes { waiter.resume() }
    }
  }

  /// Returns once `count` tasks have come to the door.
  func waitForArrivals(_ count: Int) async {
    await withCheckedContinuation { waiter in
      let arrived = inside.withLock { inside in
        if inside.arrivals >= count { return true }
        inside.arrivalWaiters.append((count, waiter))
        return false
      }
      if arrived { waiter.resume() }
    }
  }

  func open() {
    let waiting = inside.withLock { inside in
      inside.isOpen = true
      defer { inside.waiting = [] }
      return inside.waiting
    }
    for waiter in waiting { waiter.resume() }
  }
}

/// A host of accounts over a durable harness, counting its restores by id.
struct HostHarness {
  let durable: DurableHarness
  let clock: TestClock
  let restores: Locked<[String: Int]>
  let host: DurableHost<Account.State, Account.Event>

  init(
    passivateAfter: Duration? = .seconds(60), maxLoaded: Int? = nil,
    feedbacks: [Feedback<Account.State, Account.Event>] = [], door: Door? = nil
  ) {
    let durable = DurableHarness()
    let clock = TestClock()
    let restores = Locked<[String: Int]>([:])
    self.restores = restores
    self.durable = durable
    self.clock = clock
    host = DurableHost(passivateAfter: passivateAfter, maxLoaded: maxLoaded, clock: clock) { id in
      restores.withLock { $0[id, default: 0] += 1 }
      await door?.pass()
      return try await durable.restore(id, feedbacks: feedbacks)
    }
  }

  func restoreCount(_ id: String) -> Int { restores.withLock { $0[id] ?? 0 } }
}
