import FeedbackLoop
import FeedbackLoopDeclarative
import FeedbackLoopTesting
import Testing

@Suite(.runsLeftoverJobs) struct TransitionModifierTests {
  enum Mode: Equatable, Sendable { case idle, running, fallback }
  enum Command: Equatable, Sendable { case go }

  @Test func aDisabledTransitionLetsTheNextCandidateRun() {
    let locked = Flag()
    let transitions = Transitions<Mode, Command> {
      From(Mode.idle) {
        On(Command.go, transitionTo: Mode.running).disable { locked.value }
      }
      From(AnyState.self) {
        On(Command.go, transitionTo: Mode.fallback)
      }
    }
    #expect(transitions.reduce(.idle, .go) == .running)
    locked.value = true
    #expect(transitions.reduce(.idle, .go) == .fallback)
  }

  @Test func aDisabledBlockSkipsAllItsTransitions() {
    let locked = Flag()
    locked.value = true
    let transitions = Transitions<Mode, Command> {
      From(Mode.idle) { On(Command.go, transitionTo: Mode.running) }.disable { locked.value }
    }
    #expect(transitions.nextState(from: .idle, on: .go) == nil)
    locked.value = false
    #expect(transitions.nextState(from: .idle, on: .go) == .running)
  }

  @Test func disabledTransitionsLeaveEventsUnmatched() {
    let locked = Flag()
    locked.value = true
    let system = System<Mode, Command> {
      InitialState { .idle }
      Transitions {
        From(Mode.idle) { On(Command.go, transitionTo: Mode.running) }
      }
      .disable { locked.value }
    }
    system.send(.go)
    #expect(system.state == .idle)
    locked.value = false
    system.send(.go)
    #expect(system.state == .running)
  }

  @Test @MainActor func executeOnTheMainActorReducesOnTheMainActor() async {
    let system = System<Mode, Command> {
      InitialState { .idle }
      Transitions {
        From(Mode.idle) { On(Command.go, transitionTo: Mode.running) }
        From(Mode.running) { On(Command.go, transitionTo: Mode.fallback) }
      }
      .isolation(.mainActor)
    }
    // Sent on the main actor, the event is reduced before `send` returns.
    system.send(.go)
    #expect(system.state == .running)
    // Sent from elsewhere, it hops to the main actor and is reduced there.
    await Task.detached { system.send(.go) }.value
    for await state in system.states where state == .fallback { break }
    #expect(system.state == .fallback)
  }
}
