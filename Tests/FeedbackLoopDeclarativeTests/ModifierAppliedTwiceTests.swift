import FeedbackLoop
import FeedbackLoopDeclarative
import FeedbackLoopTesting
import Testing

/// Every modifier of the declarative layer applied twice follows one rule:
/// the inner call (the one applied first) wins. A modifier that chooses
/// keeps the first choice; one that adds keeps both, the inner one first.
@Suite(.runsLeftoverJobs) struct ModifierAppliedTwiceTests {
  enum Mode: Equatable, Sendable { case idle, running, fallback }
  enum Command: Equatable, Sendable { case go, knock }

  // MARK: Modifiers that choose: the first choice stays

  @Test func transitionsExecuteOnTwiceKeepsTheInnerIsolation() {
    let transitions = Transitions<Mode, Command> {
      From(Mode.idle) { On(Command.go, transitionTo: Mode.running) }
    }
    #expect(transitions.isolation(.mainActor).isolation(.sendingThread).isolation == .mainActor)
    #expect(transitions.isolation(.sendingThread).isolation(.mainActor).isolation == .sendingThread)
  }

  @Test func feedbackExecuteOnTwiceRunsOnTheInnerExecutor() {
    let systemExecutor = ManualTaskExecutor()
    let inner = ManualTaskExecutor()
    let outer = ManualTaskExecutor()
    let system = System<Int, Counter.Action>(
      environment: SystemEnvironment(clock: TestClock(), effectExecutor: systemExecutor)
    ) {
      InitialState { 0 }
      Feedbacks {
        Feedback.on(.case("zero") { $0 == 0 ? $0 : nil }) { (_: Int, send: Send<Counter.Action>) in
          send(.increment)
        }
        .effectExecutor(inner)
        .effectExecutor(outer)
      }
      Counter.transitions
    }
    systemExecutor.runUntilIdle()  // the task starts, and moves to its executor
    outer.runUntilIdle()
    #expect(system.state == 0)
    inner.runUntilIdle()
    #expect(system.state == 1)
  }

  @Test func groupExecuteOnTwiceRunsOnTheInnerExecutor() {
    let systemExecutor = ManualTaskExecutor()
    let inner = ManualTaskExecutor()
    let outer = ManualTaskExecutor()
    let system = System<Int, Counter.Action>(
      environment: SystemEnvironment(clock: TestClock(), effectExecutor: systemExecutor)
    ) {
      InitialState { 0 }
      Feedbacks {
        Feedback.on(.case("zero") { $0 == 0 ? $0 : nil }) { (_: Int, send: Send<Counter.Action>) in
          send(.increment)
        }
      }
      .effectExecutor(inner)
      .effectExecutor(outer)
      Counter.transitions
    }
    systemExecutor.runUntilIdle()
    outer.runUntilIdle()
    #expect(system.state == 0)
    inner.runUntilIdle()
    #expect(system.state == 1)
  }

  @Test func systemExecuteOnTwiceRunsEffectsOnTheInnerExecutor() {
    let inner = ManualTaskExecutor()
    let outer = ManualTaskExecutor()
    let declaration = DeclarativeSystem<Int, Counter.Action> {
      InitialState { 0 }
      Feedbacks {
        Feedback.on(.case("zero") { $0 == 0 ? $0 : nil }) { _ in .task { .increment } }
      }
      Counter.transitions
    }
    .effectExecutor(inner)
    .effectExecutor(outer)
    let system = declaration.start()
    outer.runUntilIdle()
    #expect(system.state == 0)
    inner.runUntilIdle()
    #expect(system.state == 1)
  }

  @Test func unmatchedEventsTwiceKeepsTheInnerPolicy() {
    let inner = Recorder<Command>()
    let outer = Recorder<Command>()
    let declaration = DeclarativeSystem<Mode, Command> {
      InitialState { .idle }
      Transitions { From(Mode.idle) { On(Command.go, transitionTo: Mode.running) } }
    }
    .unmatchedEvents(.report { _, event in inner.append(event) })
    .unmatchedEvents(.report { _, event in outer.append(event) })
    let system = declaration.start()
    system.send(.knock)
    #expect(inner.all == [.knock])
    #expect(outer.all.isEmpty)
  }

  // MARK: Modifiers that add: both count, the inner one first

  @Test func disableTwiceOnATransitionSkipsItWhileEitherConditionHolds() {
    let first = Flag()
    let second = Flag()
    let transitions = Transitions<Mode, Command> {
      From(Mode.idle) {
        On(Command.go, transitionTo: Mode.running).disable { first.value }.disable { second.value }
      }
      From(AnyState.self) { On(Command.go, transitionTo: Mode.fallback) }
    }
    #expect(transitions.reduce(.idle, .go) == .running)
    first.value = true
    #expect(transitions.reduce(.idle, .go) == .fallback)
    first.value = false
    second.value = true
    #expect(transitions.reduce(.idle, .go) == .fallback)
  }

  @Test func disableTwiceOnABlockSkipsItWhileEitherConditionHolds() {
    let first = Flag()
    let second = Flag()
    let transitions = Transitions<Mode, Command> {
      From(Mode.idle) { On(Command.go, transitionTo: Mode.running) }.disable { first.value }.disable { second.value }
    }
    #expect(transitions.nextState(from: .idle, on: .go) == .running)
    first.value = true
    #expect(transitions.nextState(from: .idle, on: .go) == nil)
    first.value = false
    second.value = true
    #expect(transitions.nextState(from: .idle, on: .go) == nil)
  }

  @Test func disableTwiceOnTransitionsSkipsThemWhileEitherConditionHolds() {
    let first = Flag()
    let second = Flag()
    let transitions = Transitions<Mode, Command> {
      From(Mode.idle) { On(Command.go, transitionTo: Mode.running) }
    }
    .disable { first.value }
    .disable { second.value }
    #expect(transitions.nextState(from: .idle, on: .go) == .running)
    first.value = true
    #expect(transitions.nextState(from: .idle, on: .go) == nil)
    first.value = false
    second.value = true
    #expect(transitions.nextState(from: .idle, on: .go) == nil)
  }

  @Test func disableTwiceOnAFeedbackStopsItWhileEitherConditionHolds() {
    for (first, second) in [(true, false), (false, true), (false, false)] {
      let system = System<Int, Counter.Action> {
        InitialState { 0 }
        Feedbacks { Counter.countingTo(3).disable { first }.disable { second } }
        Counter.transitions
      }
      #expect(system.state == (first || second ? 0 : 3), "disabled: \(first), \(second)")
    }
  }

  @Test func disableTwiceOnAGroupStopsItWhileEitherConditionHolds() {
    for (first, second) in [(true, false), (false, true), (false, false)] {
      let system = System<Int, Counter.Action> {
        InitialState { 0 }
        Feedbacks { Counter.countingTo(3) }.disable { first }.disable { second }
        Counter.transitions
      }
      #expect(system.state == (first || second ? 0 : 3), "disabled: \(first), \(second)")
    }
  }

  @Test func onStateReceivedTwiceCallsBothTheInnerFirst() {
    let calls = Recorder<String>()
    _ = System<Int, Counter.Action> {
      InitialState { 0 }
      Feedbacks {
        Counter.countingTo(1)
          .onStateReceived { calls.append("feedback inner \($0)") }
          .onStateReceived { calls.append("feedback outer \($0)") }
      }
      .onStateReceived { calls.append("group inner \($0)") }
      .onStateReceived { calls.append("group outer \($0)") }
      Counter.transitions
    }
    #expect(
      calls.all
        == [0, 1].flatMap { state in
          ["feedback inner", "feedback outer", "group inner", "group outer"].map { "\($0) \(state)" }
        })
  }

  @Test func onEventEmittedTwiceCallsBothTheInnerFirst() {
    let calls = Recorder<String>()
    _ = System<Int, Counter.Action> {
      InitialState { 0 }
      Feedbacks {
        Counter.countingTo(1)
          .onEventEmitted { calls.append("feedback inner \($0)") }
          .onEventEmitted { calls.append("feedback outer \($0)") }
      }
      .onEventEmitted { calls.append("group inner \($0)") }
      .onEventEmitted { calls.append("group outer \($0)") }
      Counter.transitions
    }
    #expect(
      calls.all == ["feedback inner", "feedback outer", "group inner", "group outer"].map { "\($0) increment" })
  }

  @Test func observingTransitionsTwiceCallsBothTheInnerFirst() throws {
    let calls = Recorder<String>()
    let chart = try Statechart<Int, Command>("door", initial: "idle") {
      ChartState("idle") { Transition(on: .go, to: "running") }
      ChartState("running")
    }
    .observingTransitions { calls.append("inner \($0)") }
    .observingTransitions { calls.append("outer \($0)") }
    let system = chart.start(context: 0)
    system.send(.go)
    #expect(calls.all == ["inner 0", "outer 0"])
    system.stop()
  }
}

extension ModifierAppliedTwiceTests {
  @Test func nestedGroupsEachWithExecuteOnRunEachFeedbackOnItsInnermostExecutor() {
    let systemExecutor = ManualTaskExecutor()
    let innermost = ManualTaskExecutor()
    let middle = ManualTaskExecutor()
    let outer = ManualTaskExecutor()
    let calls = Recorder<String>()
    func sending(_ label: String) -> DeclaredFeedback<Int, Counter.Action> {
      Feedback.on(.case("zero") { $0 == 0 ? $0 : nil }) { (_: Int, _: Send<Counter.Action>) in calls.append(label) }
    }
    let system = System<Int, Counter.Action>(
      environment: SystemEnvironment(clock: TestClock(), effectExecutor: systemExecutor)
    ) {
      InitialState { 0 }
      Feedbacks {
        Feedbacks {
          Feedbacks { sending("innermost") }.effectExecutor(innermost)
          sending("middle")
        }
        .effectExecutor(middle)
        sending("outer")
      }
      .effectExecutor(outer)
      Counter.transitions
    }
    systemExecutor.runUntilIdle()  // each task starts, and moves to its executor
    #expect(calls.all.isEmpty)
    outer.runUntilIdle()
    #expect(calls.all == ["outer"])
    middle.runUntilIdle()
    #expect(calls.all == ["outer", "middle"])
    innermost.runUntilIdle()
    #expect(calls.all == ["outer", "middle", "innermost"])
    system.stop()
  }

  @Test func nestedGroupsOnStateReceivedCallTheInnermostFirst() {
    let calls = Recorder<String>()
    _ = System<Int, Counter.Action> {
      InitialState { 0 }
      Feedbacks {
        Feedbacks { Counter.countingTo(0) }.onStateReceived { calls.append("inner \($0)") }
      }
      .onStateReceived { calls.append("outer \($0)") }
      Counter.transitions
    }
    #expect(calls.all == ["inner 0", "outer 0"])
  }
}
