import FeedbackLoopTesting

/// A test clock that says when something starts sleeping on it: how a test
/// knows that the server holds a request, without polling.
struct SignallingClock: Clock {
  typealias Instant = TestClock.Instant

  let base: TestClock
  let onSleep: @Sendable () -> Void

  var now: Instant { base.now }
  var minimumResolution: Duration { base.minimumResolution }

  func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    onSleep()
    try await base.sleep(until: deadline, tolerance: tolerance)
  }
}
