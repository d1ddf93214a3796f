import FeedbackLoop
import FeedbackLoopDeclarative
import FeedbackLoopTesting
import Testing

/// Delays due at the same moment expire in the order they were started
/// (SCXML's event queue), whatever order the clock wakes their tasks in.
@Suite(.runsLeftoverJobs) struct DelayOrderTests {
  enum Signal: Sendable, Equatable { case a, b, skip }

  /// A system of `chart` on a clock that wakes equal deadlines last first.
  static func system<Context: Sendable>(
    _ chart: Statechart<Context, Signal>, context: Context,
    feedbacks: [Feedback<ChartSnapshot<Context>, ChartEvent<Signal>>]? = nil
  ) -> (System<ChartSnapshot<Context>, ChartEvent<Signal>>, ReversingClock) {
    let executor = ManualTaskExecutor()
    let clock = ReversingClock(executor: executor)
    let system = System(
      initial: chart.initialState(context: context), reduce: chart.reduce,
      feedbacks: feedbacks ?? chart.feedbacks,
      environment: SystemEnvironment(clock: clock, effectExecutor: executor))
    return (system, clock)
  }

  /// The Statecharts article's skip-intro countdown, at 1 ms a step.
  static func countdown() throws -> Statechart<Int, Signal> {
    try Statechart<Int, Signal>("skipIntro", initial: "countdown") {
      ChartState("countdown", initial: "ticking") {
        OnEntry { $0 = 10 }
        Transition(on: .skip, to: "skipping")
        ChartState("ticking") {
          Transition(after: .milliseconds(1), to: "ticking", guard: "secondsLeft > 1", { $0 > 1 }) { $0 -= 1 }
          Transition(after: .milliseconds(1), to: "skipping", action: { $0 = 0 })
        }
      }
      ChartState("skipping")
    }
  }

  /// Two parallel regions, each armed by its own event, each logging when
  /// its delay expires: `aDelay` after `.a`, `bDelay` after `.b`.
  static func twoRegions(aDelay: Duration, bDelay: Duration) throws -> Statechart<[String], Signal> {
    try Statechart<[String], Signal>("regions", initial: "both") {
      ParallelState("both") {
        ChartState("left", initial: "leftIdle") {
          ChartState("leftIdle") { Transition(on: .a, to: "leftArmed") }
          ChartState("leftArmed") { Transition(after: aDelay, to: "leftIdle", action: { $0.append("a") }) }
        }
        ChartState("right", initial: "rightIdle") {
          ChartState("rightIdle") { Transition(on: .b, to: "rightArmed") }
          ChartState("rightArmed") { Transition(after: bDelay, to: "rightIdle", action: { $0.append("b") }) }
        }
      }
    }
  }

  @Test("G11 the countdown's two equal delays expire in declaration order on a clock that wakes them last first")
  func countdownKeepsCounting() throws {
    let (system, clock) = Self.system(try Self.countdown(), context: 0)
    var counts: [Int] = [system.state.context]
    for _ in 0..<10 {
      clock.advance(by: .milliseconds(1))
      counts.append(system.state.context)
    }
    #expect(counts == [10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0])
    #expect(system.state.activeLeaves == ["skipping"])
    system.stop()
  }

  @Test("G11 equal delays started by two events expire in the order the events started them")
  func orderOfStartingAcrossEvents() throws {
    for (first, second) in [(Signal.a, Signal.b), (.b, .a)] {
      let chart = try Self.twoRegions(aDelay: .milliseconds(5), bDelay: .milliseconds(5))
      let (system, clock) = Self.system(chart, context: [])
      system.send(first)
      system.send(second)
      clock.advance(by: .milliseconds(5))
      #expect(system.state.context == ["\(first)", "\(second)"])
      system.stop()
    }
  }

  @Test("G11 delays of different lengths due at the same moment expire in the order they were started")
  func sameDeadlineDifferentLengths() throws {
    let chart = try Self.twoRegions(aDelay: .milliseconds(2), bDelay: .milliseconds(1))
    let (system, clock) = Self.system(chart, context: [])
    system.send(.a)  // due at 2 ms
    clock.advance(by: .milliseconds(1))
    system.send(.b)  // due at 2 ms too, started later
    clock.advance(by: .milliseconds(1))
    #expect(system.state.context == ["a", "b"])
    system.stop()
  }

  @Test("G4 a delay whose state the earlier expiry left is not taken, though it was due at the same moment")
  func earlierExpiryLeavesTheState() throws {
    let chart = try Statechart<[String], Signal>("race", initial: "armed") {
      ChartState("armed") {
        Transition(after: .milliseconds(1), to: "left", action: { $0.append("first") })
        Transition(after: .milliseconds(1), to: "armed", action: { $0.append("second") })
      }
      ChartState("left")
    }
    let (system, clock) = Self.system(chart, context: [])
    clock.advance(by: .milliseconds(5))
    #expect(system.state.context == ["first"])
    #expect(system.state.activeLeaves == ["left"])
    system.stop()
  }

  @Test("G9 delays pending when the system stops expire into nothing")
  func stopWithPendingDelays() throws {
    let (system, clock) = Self.system(try Self.countdown(), context: 0)
    clock.advance(by: .milliseconds(3))
    system.stop()
    clock.advance(by: .milliseconds(10))
    #expect(system.state.context == 7)
    #expect(system.state.activeLeaves == ["ticking"])
  }

  @Test("G11 two systems sharing one chart's feedbacks each keep their own order")
  func twoSystemsShareTheFeedbacks() throws {
    let chart = try Self.countdown()
    let feedbacks = chart.feedbacks
    let (first, firstClock) = Self.system(chart, context: 0, feedbacks: feedbacks)
    let (second, secondClock) = Self.system(chart, context: 0, feedbacks: feedbacks)
    var firstCounts: [Int] = []
    var secondCounts: [Int] = []
    for step in 1...10 {
      firstClock.advance(by: .milliseconds(1))
      firstCounts.append(first.state.context)
      if step.isMultiple(of: 2) {
        secondClock.advance(by: .milliseconds(2))
        secondCounts.append(second.state.context)
      }
    }
    #expect(firstCounts == [9, 8, 7, 6, 5, 4, 3, 2, 1, 0])
    #expect(secondCounts == [8, 6, 4, 2, 0])
    #expect(first.state.activeLeaves == ["skipping"])
    #expect(second.state.activeLeaves == ["skipping"])
    first.stop()
    second.stop()
  }

  @Test("A delay started after its run's queue emptied is not lost to a late task of an earlier delay")
  func lateTaskOfADeliveredDelay() throws {
    // "x" (targetless: its state stays) is sent by the task of "y", which
    // the clock wakes first; "y" enters a state whose activity sends `.a`
    // later, which starts "w" in a queue that was emptied in between. Then
    // the task of "x" wakes, late, and "x"'s state is left: "w" must stay.
    let chart = try Statechart<[String], Signal>("late", initial: "all") {
      ParallelState("all") {
        ChartState("r1", initial: "a") {
          ChartState("a") {
            Transition(after: .milliseconds(1), to: nil, action: { $0.append("x") })
            Transition(on: .b, to: "a2")
          }
          ChartState("a2")
        }
        ChartState("r2", initial: "p") {
          ChartState("p") { Transition(after: .milliseconds(1), to: "q", action: { $0.append("y") }) }
          ChartState("q") { Activity { _ in .task { .a } } }
        }
        ChartState("r3", initial: "idle") {
          ChartState("idle") { Transition(on: .a, to: "w") }
          ChartState("w") { Transition(after: .milliseconds(5), to: "done", action: { $0.append("w") }) }
          ChartState("done")
        }
      }
    }
    let (system, clock) = Self.system(chart, context: [])
    clock.advance(by: .milliseconds(1))
    #expect(system.state.context == ["x", "y"])
    #expect(system.state.isActive("w"))
    system.send(.b)
    clock.advance(by: .milliseconds(10))
    #expect(system.state.context == ["x", "y", "w"])
    #expect(system.state.isActive("done"))
    system.stop()
  }

  @Test("G11 a delay started while another is being delivered, due at once, expires after it")
  func zeroDelayStartedByAnExpiry() throws {
    let chart = try Statechart<[String], Signal>("chain", initial: "one") {
      ChartState("one") { Transition(after: .milliseconds(1), to: "two", action: { $0.append("one") }) }
      ChartState("two") { Transition(after: .zero, to: "three", action: { $0.append("two") }) }
      ChartState("three")
    }
    let (system, clock) = Self.system(chart, context: [])
    clock.advance(by: .milliseconds(1))
    #expect(system.state.context == ["one", "two"])
    #expect(system.state.activeLeaves == ["three"])
    system.stop()
  }

  @Test("G11 a zero delay expires before a one-nanosecond delay started before it")
  func zeroBeforeOneNanosecond() throws {
    let chart = try Self.twoRegions(aDelay: .nanoseconds(1), bDelay: .zero)
    let (system, clock) = Self.system(chart, context: [])
    system.send(.a)
    system.send(.b)
    clock.advance(by: .nanoseconds(1))
    #expect(system.state.context == ["b", "a"])
    system.stop()
  }
}
