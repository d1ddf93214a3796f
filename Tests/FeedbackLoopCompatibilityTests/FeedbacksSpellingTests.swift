import FeedbackLoop
import FeedbackLoopCompatibility
import FeedbackLoopDeclarative
import FeedbackLoopScenarios
import FeedbackLoopTesting
import Testing

/// The Feedbacks library's `Feedback(on:...)` functions are `Feedback.on(...)`: the
/// same states reached for the same declared system, the same names.
@Suite(.runsLeftoverJobs) struct FeedbacksSpellingTests {
  enum Action: Equatable, Sendable { case increment, reset }

  static let transitions = Transitions<Int, Action> {
    From(AnyState.self) { count in
      On(Action.increment, transitionTo: .any) { count() + 1 }
      On(Action.reset, transitionTo: 0)
    }
  }

  /// The states a system counting up under `feedback` goes through.
  static func states(_ feedback: DeclaredFeedback<Int, Action>) -> [String] {
    let harness = Harness()
    let recorder = TraceRecorder<Int, Action>()
    let system = System<Int, Action>(environment: harness.environment, monitor: recorder.monitor) {
      InitialState { 0 }
      Feedbacks { feedback }
      transitions
    }
    for _ in 0..<5 {
      harness.settle()
      harness.clock.advance(by: .seconds(1))
    }
    system.stop()
    return recorder.recorded.states
  }

  @Test("Feedback(on: Type.self) with an effect is Feedback.on(Type.self)")
  func onTypeWithEffect() {
    let old: DeclaredFeedback<Int, Action> = Feedback(on: Int.self, strategy: .continueOnNewState) { count in
      count < 3 ? .send(.increment) : .none
    }
    let new: DeclaredFeedback<Int, Action> = Feedback.on(Int.self, strategy: .queue) { count in
      count < 3 ? .send(.increment) : .none
    }
    #expect(Self.states(old) == Self.states(new))
    #expect(Self.states(new).last == "3")
    #expect(old.stateName == new.stateName)
  }

  @Test("Feedback(on: AnyState.self) with an operation is Feedback.on(AnyState.self)")
  func onAnyStateWithOperation() {
    let old: DeclaredFeedback<Int, Action> = Feedback(on: AnyState.self, strategy: .cancelOnNewState) { count, send in
      if count < 2 { send(.increment) }
    }
    let new: DeclaredFeedback<Int, Action> = Feedback.on(AnyState.self, strategy: .cancelPrevious) { count, send in
      if count < 2 { send(.increment) }
    }
    #expect(Self.states(old) == Self.states(new))
    #expect(Self.states(new).last == "2")
    #expect(old.stateName == new.stateName)
  }

  @Test("Feedback(on: pattern) is Feedback.on(pattern)")
  func onPattern() {
    let below: Pattern<Int, Int> = .case("below 4") { $0 < 4 ? $0 : nil }
    let old: DeclaredFeedback<Int, Action> = Feedback(on: below) { _ in .send(.increment) }
    let new: DeclaredFeedback<Int, Action> = Feedback.on(below) { _ in .send(.increment) }
    #expect(Self.states(old) == Self.states(new))
    #expect(Self.states(new).last == "4")
    #expect(old.stateName == "below 4" && new.stateName == "below 4")
  }
}
