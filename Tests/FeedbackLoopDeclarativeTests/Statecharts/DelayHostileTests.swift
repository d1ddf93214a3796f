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
    _ chart: Statechart<[String], Signal>, initial: ChartSnapshot<[String]>,
    feedbacks: [Feedback<ChartSnapshot<[String]>, ChartEvent<Signal>>], clock: some Clock<Duration>,
    executor: ManualTaskExecutor
  ) -> System<ChartSnapshot<[String]>, ChartEvent<Signal>> {
    System(
      initial: initial, reduce: chart.reduce, feedbacks: feedbacks,
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

extension DelayHostileTests {
  @Test("G11 a clock whose reading lags its timer still expires the delays it wakes, in order")
  func clockReadingLagsItsTimer() throws {
    let chart = try DelayOrderTests.twoRegions(aDelay: .milliseconds(5), bDelay: .milliseconds(5))
    let executor = ManualTaskExecutor()
    let clock = LaggingClock(executor: executor)
    let system = System(
      initial: chart.initialState(context: []), reduce: chart.reduce, feedbacks: chart.feedbacks,
      environment: SystemEnvironment(clock: clock, effectExecutor: executor))
    system.send(.b)
    system.send(.a)
    clock.advance(by: .milliseconds(5))
    #expect(system.state.context == ["b", "a"])
    system.stop()
  }

  @Test("G11 a delay restarted by re-entering its state, due with another pending one, expires after it")
  func reenteredDelayDueWithAnother() throws {
    // "a" is armed at 0 (due at 5) and re-armed at 2 by `.skip` (due at 7);
    // "b" is armed at 2 too, after it (due at 7): "a" then "b" at 7, never
    // at 5.
    let chart = try Statechart<[String], Signal>("rearm", initial: "both") {
      ParallelState("both") {
        ChartState("left", initial: "armed") {
          ChartState("armed") {
            Transition(after: .milliseconds(5), to: "fired", action: { $0.append("a") })
            Transition(on: .skip, to: "armed")
          }
          ChartState("fired")
        }
        ChartState("right", initial: "idle") {
          ChartState("idle") { Transition(on: .skip, to: "waiting") }
          ChartState("waiting") { Transition(after: .milliseconds(5), to: "idle", action: { $0.append("b") }) }
        }
      }
    }
    let (system, clock) = DelayOrderTests.system(chart, context: [])
    clock.advance(by: .milliseconds(2))
    system.send(.skip)
    clock.advance(by: .milliseconds(3))
    #expect(system.state.context == [])
    clock.advance(by: .milliseconds(2))
    #expect(system.state.context == ["a", "b"])
    system.stop()
  }

  @Test("G9 a system stopped by the first of several delays due together sends none of the others")
  func stopWhileDeliveringSeveral() throws {
    let chart = try Statechart<[String], Signal>("trio", initial: "all") {
      ParallelState("all") {
        ChartState("one") { Transition(after: .milliseconds(1), to: nil, action: { $0.append("1") }) }
        ChartState("two") { Transition(after: .milliseconds(1), to: nil, action: { $0.append("2") }) }
        ChartState("three") { Transition(after: .milliseconds(1), to: nil, action: { $0.append("3") }) }
      }
    }
    let target = Locked<System<ChartSnapshot<[String]>, ChartEvent<Signal>>?>(nil)
    let stopper = Feedback<ChartSnapshot<[String]>, ChartEvent<Signal>>.observer({
      { state in if !state.context.isEmpty { target.withLock { $0 }?.stop() } }
    })
    let (system, clock) = DelayOrderTests.system(chart, context: [], feedbacks: chart.feedbacks + [stopper])
    target.withLock { $0 = system }
    clock.advance(by: .milliseconds(1))
    clock.advance(by: .milliseconds(5))
    #expect(system.state.context == ["1"])
    #expect(system.isStopped)
    #expect(system.runningTaskCount == 0)
  }

  @Test("G11 zero delays in two regions expire at once, each once")
  func zeroDelaysInTwoRegions() throws {
    let chart = try Statechart<[String], Signal>("now", initial: "all") {
      ParallelState("all") {
        ChartState("zero", initial: "z") {
          ChartState("z") { Transition(after: .zero, to: "zDone", action: { $0.append("zero") }) }
          ChartState("zDone")
        }
        ChartState("other", initial: "n") {
          ChartState("n") { Transition(after: .zero, to: "nDone", action: { $0.append("other") }) }
          ChartState("nDone")
        }
      }
    }
    let (system, clock) = DelayOrderTests.system(chart, context: [])
    clock.advance(by: .zero)
    #expect(system.state.context.sorted() == ["other", "zero"])
    #expect(system.state.activeLeaves == ["zDone", "nDone"])
    clock.advance(by: .milliseconds(10))
    #expect(system.state.context.sorted() == ["other", "zero"])
    system.stop()
  }

  @Test("G11 a thousand delayed transitions of one state, due together, expire in declaration order")
  func aThousandDelaysDueTogether() throws {
    let count = 1_000
    let chart = try Statechart<[Int], Signal>("many", initial: "waiting") {
      ChartState("waiting") {
        for number in 0..<count {
          Transition(after: .milliseconds(1), to: nil, action: { $0.append(number) })
        }
      }
    }
    let executor = ManualTaskExecutor()
    let clock = ReversingClock(executor: executor)
    let system = System(
      initial: chart.initialState(context: []), reduce: chart.reduce, feedbacks: chart.feedbacks,
      environment: SystemEnvironment(clock: clock, effectExecutor: executor))
    clock.advance(by: .milliseconds(1))
    #expect(system.state.context == Array(0..<count))
    system.stop()
  }
}
