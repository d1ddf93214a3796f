import FeedbackLoop
import FeedbackLoopTesting

/// A test clock and a manual executor, wired into an environment: effects run
/// only when the test runs the executor or advances the clock. What the
/// system logs is kept in `logs`, not printed, so that a passing run stays
/// quiet.
package struct Harness {
  package let executor = ManualTaskExecutor()
  package let clock: TestClock
  package let logs = LogRecorder()
  package let environment: SystemEnvironment

  package init(eventBuffer: EventBufferPolicy = .unbounded) {
    clock = TestClock(executor: executor)
    environment = SystemEnvironment(
      clock: clock, effectExecutor: executor, logger: logs.logger, eventBuffer: eventBuffer)
  }

  package func settle() { executor.runUntilIdle() }
}
