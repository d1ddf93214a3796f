import FeedbackLoop
import FeedbackLoopTesting
import Testing

/// The input feedback guide's code (InputFeedback.md), and the tests that
/// hold its timeline.
enum InputGuide {
  enum Counter {
    enum Event: Sendable, Equatable {
      case increment
      case reset
    }

    static func reduce(_ count: inout Int, _ event: Event) {
      switch event {
      case .increment: count += 1
      case .reset: count = 0
      }
    }

    /// A counter that buttons increment and a notification resets.
    static func start(
      buttons: Input<Event>, resets: AsyncStream<Void>,
      environment: SystemEnvironment = SystemEnvironment()
    ) -> System<Int, Event> {
      System(
        initial: 0, reduce: reduce,
        feedbacks: [
          .input(buttons),
          .input(resets.map { Event.reset }),
        ],
        environment: environment)
    }
  }
}

@Suite struct InputGuideTests {
  @Test("G8 the input guide's timeline: both inputs are bound while the system runs, and stop with it")
  func timeline() {
    let executor = ManualTaskExecutor()
    let clock = TestClock(executor: executor)
    let buttons = Input<InputGuide.Counter.Event>()
    let resets = AsyncStream<Void>.makeStream()
    let counter = InputGuide.Counter.start(
      buttons: buttons, resets: resets.stream,
      environment: SystemEnvironment(clock: clock, effectExecutor: executor))

    buttons.send(.increment)
    buttons.send(.increment)
    #expect(counter.state == 2)
    resets.continuation.yield()
    executor.runUntilIdle()
    #expect(counter.state == 0)

    counter.stop()
    buttons.send(.increment)
    resets.continuation.yield()
    executor.runUntilIdle()
    #expect(counter.state == 0)
  }
}
