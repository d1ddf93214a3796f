import FeedbackLoop
import FeedbackLoopTesting
import Foundation

/// A clock for tests that wakes the tasks due at one moment in the reverse
/// of the order they went to sleep, one at a time, running the executor
/// until idle after each: a real clock promises no order among equal
/// deadlines, and this is the order that hurts most.
final class ReversingClock: Clock, @unchecked Sendable {
  // Sendable: `current`, `sleepers` and `lastID` are guarded by `lock`;
  // `executor` is thread-safe.
  typealias Instant = TestClock.Instant

  private struct Sleeper {
    let id: UInt64
    let deadline: Instant
    let continuation: CheckedContinuation<Void, any Error>
  }

  private let lock = NSLock()
  private var current = Instant(offset: .zero)
  private var sleepers: [Sleeper] = []
  private var lastID: UInt64 = 0
  let executor: ManualTaskExecutor

  init(executor: ManualTaskExecutor) { self.executor = executor }

  var now: Instant { lock.withLock { current } }
  var minimumResolution: Duration { .zero }

  func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    let id = lock.withLock {
      lastID += 1
      return lastID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        let wakeNow: Bool? = lock.withLock {
          if deadline <= current { return true }
          if Task.isCancelled { return false }
          sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
          return nil
        }
        switch wakeNow {
        case true?: continuation.resume()
        case false?: continuation.resume(throwing: CancellationError())
        case nil: break
        }
      }
    } onCancel: {
      let cancelled = lock.withLock { () -> Sleeper? in
        guard let index = sleepers.firstIndex(where: { $0.id == id }) else { return nil }
        return sleepers.remove(at: index)
      }
      cancelled?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Moves time forward by `duration`: at each deadline on the way, wakes
  /// its sleepers last first, running the executor after each.
  func advance(by duration: Duration) {
    executor.runUntilIdle()
    let target = now.advanced(by: duration)
    while let due = nextDue(until: target) {
      for sleeper in due.reversed() {
        sleeper.continuation.resume()
        executor.runUntilIdle()
      }
    }
    lock.withLock { if current < target { current = target } }
    executor.runUntilIdle()
  }

  /// Removes the sleepers of the earliest deadline due by `target`, in the
  /// order they went to sleep, and moves the time to that deadline.
  private func nextDue(until target: Instant) -> [Sleeper]? {
    lock.withLock {
      guard let deadline = sleepers.map(\.deadline).min(), deadline <= target else { return nil }
      let due = sleepers.filter { $0.deadline == deadline }
      sleepers.removeAll { $0.deadline == deadline }
      if current < deadline { current = deadline }
      return due
    }
  }
}
