import FeedbackLoop
import FeedbackLoopTesting

/// A test clock and a manual executor, wired into an environment: effects run
/// only when the test runs the executor or advances the clock.
package struct Harness {
  package let executor = ManualTaskExecutor()
  package let clock: TestClock
  package let environment: SystemEnvironment

  package init(eventBuffer: EventBufferPolicy = .unbounded) {
    clock = TestClock(executor: executor)
    environment = SystemEnvironment(clock: clock, effectExecutor: executor, eventBuffer: eventBuffer)
  }

  package func settle() { executor.runUntilIdle() }
}
