import FeedbackLoop
import FeedbackLoopTesting

/// A clock for tests whose reading lags its timer by a nanosecond: a task
/// it wakes at a deadline reads a moment just before it. A real clock whose
/// reading and whose timer are kept apart (rounded differently, say) does
/// the same.
final class LaggingClock: Clock, Sendable {
  typealias Instant = TestClock.Instant

  let timer: TestClock

  init(executor: ManualTaskExecutor) { timer = TestClock(executor: executor) }

  var now: Instant { Instant(offset: timer.now.offset - .nanoseconds(1)) }
  var minimumResolution: Duration { .zero }

  func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try await timer.sleep(until: deadline, tolerance: tolerance)
  }

  func advance(by duration: Duration) { timer.advance(by: duration) }
}
