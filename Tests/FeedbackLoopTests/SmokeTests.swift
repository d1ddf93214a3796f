import FeedbackLoop
import FeedbackLoopTesting
import Testing

@Suite(.runsLeftoverJobs) struct SmokeTests {
  enum Event: Sendable, Equatable { case increment, decrement, set(Int) }

  static func reduce(_ state: Int, _ event: Event) -> Int {
    switch event {
    case .increment: state + 1
    case .decrement: state - 1
    case .set(let value): value
    }
  }

  @Test func inputAndSend() {
    let input = Input<Event>()
    input.send(.increment)
    let system = System(initial: 0, reduceReturning: Self.reduce, feedbacks: [.input(input)])
    #expect(system.state == 1)
    input.send(.increment)
    system.send(.increment)
    #expect(system.state == 3)
  }

  @Test func synchronousPingPong() {
    let system = System(
      initial: 0, reduceReturning: Self.reduce,
      feedbacks: [Feedback.query({ $0 < 1000 ? $0 : nil }) { _ in .send(.increment) }])
    #expect(system.state == 1000)
  }

  @Test func asyncEffectOnTestClock() {
    let executor = ManualTaskExecutor()
    let clock = TestClock(executor: executor)
    let system = System(
      initial: 0, reduceReturning: Self.reduce,
      feedbacks: [Feedback.query({ $0 < 3 ? $0 : nil }) { _ in .after(.seconds(1), send: .increment) }],
      environment: SystemEnvironment(clock: clock, effectExecutor: executor))
    executor.runUntilIdle()
    #expect(system.state == 0)
    clock.advance(by: .seconds(1))
    #expect(system.state == 1)
    clock.advance(by: .seconds(2))
    #expect(system.state == 3)
  }
}
