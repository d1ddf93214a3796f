import FeedbackLoop
import FeedbackLoopTesting

/// The time of a scripted session that needs no network: a `TestClock` that
/// the script advances, and a `ManualTaskExecutor` on which every effect runs.
///
/// A 3-second timer fires when the script waits 3 seconds, at once, and the
/// timeline shows the clock's time: the session is the same on every run
/// and takes no real time.
final class ScriptClock: Sendable {
  let executor = ManualTaskExecutor()
  let clock: TestClock

  init() {
    clock = TestClock(executor: executor)
  }

  /// The environment a scripted system runs in.
  var environment: SystemEnvironment {
    SystemEnvironment(clock: clock, effectExecutor: executor)
  }

  /// The time since the session started, for the timeline.
  var now: @Sendable () -> Duration {
    { [clock] in clock.now.offset }
  }

  /// Runs every effect until each waits for the clock or has ended.
  func settle() {
    executor.runUntilIdle()
  }

  /// Lets `duration` pass: each timer due on the way fires, at its time.
  func wait(_ duration: Duration) {
    clock.advance(by: duration)
  }

  /// What the session's header says about time.
  static let description =
    "Scripted session on a TestClock that the script advances: the times are the clock's, and nothing waits for real."
}
