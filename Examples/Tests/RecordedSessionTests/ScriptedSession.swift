import FeedbackLoop
import FeedbackLoopDebugging
import FeedbackLoopTesting

/// The examples runner's scripted sessions, replayed here with a recorder
/// attached (the runner builds its systems with a printer as their monitor;
/// these tests build the same systems, from the same example libraries,
/// and act the same script on the same kind of clock).
struct ScriptedSession {
  let executor = ManualTaskExecutor()
  let clock: TestClock
  let environment: SystemEnvironment

  init() {
    clock = TestClock(executor: executor)
    environment = SystemEnvironment(clock: clock, effectExecutor: executor)
  }

  /// Does `action`, then lets every effect it started run as far as it can.
  func act(_ action: () -> Void = {}) {
    action()
    executor.runUntilIdle()
  }

  /// Lets `duration` pass: each timer due on the way fires, at its time.
  func wait(_ duration: Duration) {
    clock.advance(by: duration)
  }

  /// A recorder that stamps moments with the session's clock.
  func recorder<State, Event>(_ state: State.Type, _ event: Event.Type) -> Recorder<State, Event> {
    Recorder(capacity: 10_000, clock: clock)
  }
}
