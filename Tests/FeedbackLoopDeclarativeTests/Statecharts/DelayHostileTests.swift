import FeedbackLoop
import FeedbackLoopDeclarative
import FeedbackLoopTesting
import Testing

/// The chart delays' queue under hostile use: systems that share a chart's
/// initial state and feedbacks, stops at awkward moments, odd clocks.
@Suite(.runsLeftoverJobs) struct DelayHostileTests {
  typealias Signal = DelayOrderTests.Signal

  /// A chart whose initial state expires after 5 ms into "done", logging it.
  static func fuse() throws -> Statechart<[String], Signal> {
    try Statechart<[String], Signal>("fuse", initial: "lit") {
      ChartState("lit") { Transition(after: .milliseconds(5), to: "done", action: { $0.append("boom") }) }
      ChartState("done")
    }
  }

  static func system(
    _ chart: Statechart<[String], Signal>, initial: StatechartState<[String]>,
    feedbacks: [Feedback<StatechartState<[String]>, ChartEvent<Signal>>], clock: some Clock<Duration>,
    executor: ManualTaskExecutor
  ) -> System<StatechartState<[String]>, ChartEvent<Signal>> {
    System(
      initial: initial, reduceInPlace: chart.reduce, feedbacks: feedbacks,
      environment: SystemEnvironment(clock: clock, effectExecutor: executor))
  }

  @Test(
    "G11 two systems made from one initial state and one feedbacks array, each on its own test clock, each time their own delays"
  )
  func sharedInitialStateOnTwoClocks() throws {
    // A suite's fixtures, made once: what two tests running side by side
    // (each with its own test clock) start their systems from.
    let chart = try Self.fuse()
    let initial = chart.initialState(context: [])
    let feedbacks = chart.feedbacks
    let firstExecutor = ManualTaskExecutor()
    let firstClock = ReversingClock(executor: firstExecutor)
    let secondExecutor = ManualTaskExecutor()
    let secondClock = ReversingClock(executor: secondExecutor)
    let first = Self.system(chart, initial: initial, feedbacks: feedbacks, clock: firstClock, executor: firstExecutor)
    let second = Self.system(
      chart, initial: initial, feedbacks: feedbacks, clock: secondClock, executor: secondExecutor)
    firstClock.advance(by: .milliseconds(5))
    #expect(first.state.context == ["boom"])
    #expect(second.state.context == [])
    secondClock.advance(by: .milliseconds(4))
    #expect(second.state.context == [])
    secondClock.advance(by: .milliseconds(1))
    #expect(second.state.context == ["boom"])
    first.stop()
    second.stop()
  }

  @Test("G9 a system stopped before its delay's task ran holds back no delay of a system made from the same state")
  func stoppedSystemHoldsNoOtherBack() throws {
    let chart = try Self.fuse()
    let initial = chart.initialState(context: [])
    let feedbacks = chart.feedbacks
    let executor = ManualTaskExecutor()
    let clock = ReversingClock(executor: executor)
    // Armed as it starts; stopped before the executor ran the delay's task,
    // which therefore never runs (G9).
    let stopped = Self.system(chart, initial: initial, feedbacks: feedbacks, clock: clock, executor: executor)
    stopped.stop()
    let running = Self.system(chart, initial: initial, feedbacks: feedbacks, clock: clock, executor: executor)
    clock.advance(by: .milliseconds(5))
    #expect(running.state.context == ["boom"])
    #expect(running.state.activeLeaves == ["done"])
    #expect(stopped.state.context == [])
    running.stop()
  }

  @Test(
    "G11 a system whose executor has not run its due delay's task holds back no delay of a system made from the same state"
  )
  func idleExecutorHoldsNoOtherBack() throws {
    let chart = try Self.fuse()
    let initial = chart.initialState(context: [])
    let feedbacks = chart.feedbacks
    let clock = TestClock()
    let idleExecutor = ManualTaskExecutor()
    let busyExecutor = ManualTaskExecutor()
    let idle = Self.system(chart, initial: initial, feedbacks: feedbacks, clock: clock, executor: idleExecutor)
    let busy = Self.system(chart, initial: initial, feedbacks: feedbacks, clock: clock, executor: busyExecutor)
    busyExecutor.runUntilIdle()
    clock.advance(by: .milliseconds(5))
    busyExecutor.runUntilIdle()
    #expect(busy.state.context == ["boom"])
    #expect(idle.state.context == [])
    idleExecutor.runUntilIdle()
    clock.advance(by: .milliseconds(5))
    idleExecutor.runUntilIdle()
    #expect(idle.state.context == ["boom"])
    idle.stop()
    busy.stop()
  }
}
