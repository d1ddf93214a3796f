import FeedbackLoop
import FeedbackLoopDeclarative
import FeedbackLoopTesting
import Testing

/// A declared system is a core system: the design's guarantees hold for it.
@Suite(.runsLeftoverJobs) struct GuaranteeTests {
  @Test("G1 the initial state reaches every feedback and observer before any event is reduced")
  func initialStateFirst() {
    let seen = Recorder<String>()
    let system = System<Int, Counter.Action> {
      InitialState { 0 }
      Feedbacks {
        Counter.countingTo(2).onStateReceived { seen.append("first feedback \($0)") }
        Feedback.on(AnyState.self) { _ in .none }.onStateReceived { seen.append("second feedback \($0)") }
      }
      Counter.transitions
    }
    #expect(Array(seen.all.prefix(2)) == ["first feedback 0", "second feedback 0"])
    let observed = Recorder<Int>()
    let observation = system.observe { observed.append($0) }
    #expect(observed.all == [2])
    observation.cancel()
  }

  @Test("G10 a main-actor system declared on the main actor has run its first states before init returns")
  @MainActor
  func mainActorDeclaredSystemStartsOnTheCaller() {
    // `Counter.countingTo(2)` answers the states below 2 at once: if the
    // declaration passes the caller's isolation on, the core starts the
    // system before `init` returns and the state is 2; if not, the start
    // waits for a hop to the main actor and the state is still 0.
    let system = System<Int, Counter.Action>(isolation: .mainActor) {
      InitialState { 0 }
      Feedbacks { Counter.countingTo(2) }
      Counter.transitions
    }
    #expect(system.state == 2)
    let declaration = DeclarativeSystem<Int, Counter.Action> {
      InitialState { 0 }
      Feedbacks { Counter.countingTo(3) }
      Counter.transitions
    }
    #expect(declaration.start(isolation: .mainActor).state == 3)
    #expect(declaration.start(isolation: .mainActor).state == 3)
  }

  @Test("G2 events sent from many threads are each reduced once, in order per sender")
  func serialOrderedReduction() async {
    let system = System<[Int], Int> {
      InitialState { [] }
      Transitions {
        From(AnyState.self) { values in
          On(AnyEvent.self, transitionTo: .any) { value in values() + [value] }
        }
      }
    }
    await withTaskGroup(of: Void.self) { group in
      for sender in 0..<4 {
        group.addTask {
          for index in 0..<250 { system.send(sender * 1000 + index) }
        }
      }
    }
    let reduced = system.state
    #expect(reduced.count == 1000)
    #expect(Set(reduced).count == 1000)
    for sender in 0..<4 {
      let own = reduced.filter { $0 / 1000 == sender }
      #expect(own == own.sorted())
    }
  }

  @Test("G2 an event a feedback sends while a state fans out is reduced after the current one")
  func noReentrantReduction() {
    let order = Recorder<String>()
    let system = System<Int, Counter.Action> {
      InitialState { 0 }
      Feedbacks {
        Feedback.on(.value(1)) { _ in .send(.increment) }
          .onStateReceived { order.append("feedback saw \($0)") }
      }
      Transitions {
        From(AnyState.self) { count in
          On(Counter.Action.increment, transitionTo: .any) {
            order.append("reduce from \(count())")
            return count() + 1
          }
        }
      }
    }
    system.send(.increment)
    #expect(system.state == 2)
    #expect(
      order.all == ["feedback saw 0", "reduce from 0", "feedback saw 1", "reduce from 1", "feedback saw 2"])
  }

  @Test("G3 every feedback sees every state in order, unchanged ones included, before observers")
  func everyFeedbackSeesEveryState() {
    let first = Recorder<Int>()
    let second = Recorder<Int>()
    let system = System<Int, Counter.Action> {
      InitialState { 0 }
      Feedbacks {
        Feedback.on(AnyState.self) { _ in .none }.onStateReceived { first.append($0) }
        Feedback.on(AnyState.self) { _ in .none }.onStateReceived { second.append($0) }
      }
      Transitions {
        From(AnyState.self) { count in
          On(Counter.Action.increment, transitionTo: .any) { count() + 1 }
        }
      }
    }
    let observed = Recorder<Int>()
    let observation = system.observe { value in
      observed.append(value)
      // The feedbacks have seen this state already.
      #expect(first.all.last == value)
    }
    system.send(.increment)
    system.send(.reset)  // unmatched: the state is kept, and still delivered
    system.send(.increment)
    #expect(first.all == [0, 1, 1, 2])
    #expect(second.all == first.all)
    #expect(observed.all == [0, 1, 1, 2])
    observation.cancel()
  }

  @Test("G9 releasing a declared system cancels its effects and frees it")
  func releasingStops() {
    let executor = ManualTaskExecutor()
    let clock = TestClock(executor: executor)
    let emitted = Recorder<Counter.Action>()
    weak var weakSystem: System<Int, Counter.Action>?
    do {
      let system = System<Int, Counter.Action>(
        environment: SystemEnvironment(clock: clock, effectExecutor: executor)
      ) {
        InitialState { 0 }
        Feedbacks {
          Feedback.on(AnyState.self) { _ in .after(.seconds(1), send: .increment) }
            .onEventEmitted { emitted.append($0) }
        }
        Counter.transitions
      }
      executor.runUntilIdle()
      #expect(clock.sleeperCount == 1)
      weakSystem = system
    }
    executor.runUntilIdle()
    #expect(weakSystem == nil)
    #expect(clock.sleeperCount == 0)
    clock.advance(by: .seconds(5))
    #expect(emitted.all.isEmpty)
  }

  @Test("G13 the same initial state and events give the same states")
  func determinism() {
    let events: [Pages.Action] = [.failed, .refresh, .loaded(["a"]), .refresh, .failed, .loaded(["b"])]
    func run() -> [Pages.Phase] {
      let transitions = Pages.declaration { _ in [] }.transitions
      var state = Pages.Phase.loading(page: 1)
      var states = [state]
      for event in events {
        state = transitions.reduce(state, event)
        states.append(state)
      }
      return states
    }
    #expect(run() == run())
    let system = Pages.declaration { _ in [] }.unmatchedEvents(.keepState).start(
      environment: SystemEnvironment(clock: TestClock(), effectExecutor: ManualTaskExecutor()))
    let recorded = Recorder<Pages.Phase>()
    let observation = system.observe { recorded.append($0) }
    system.send(contentsOf: events)
    #expect(recorded.all == run())
    observation.cancel()
  }
}
