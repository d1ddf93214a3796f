import FeedbackLoop
import FeedbackLoopDeclarative
import FeedbackLoopTesting
import Testing

@Suite(.runsLeftoverJobs) struct SideEffectTests {
  struct Service: Sendable { let value: Int }

  enum Effects {
    static func load(
      _ a: Service, _ b: Service, _ c: Service, _ d: Service, _ e: Service, _ f: Service, _ g: Service,
      state: Int
    ) -> Effect<Counter.Action> {
      let total = [a, b, c, d, e, f, g].map(\.value).reduce(0, +)
      return state < total ? .send(.increment) : .none
    }

    static func describe(network: Service, state: Int) -> String { "\(network.value):\(state)" }
  }

  @Test func makeBindsDependenciesBeforeTheState() {
    let describe = SideEffect.make(Effects.describe, Service(value: 7))
    #expect(describe(3) == "7:3")
  }

  @Test func makeHasNoLimitOfSixArguments() {
    let services = (1...7).map { Service(value: $0) }  // 1 + 2 + ... + 7 = 28
    let load = SideEffect.make(
      Effects.load, services[0], services[1], services[2], services[3], services[4], services[5], services[6])
    let system = System<Int, Counter.Action> {
      InitialState { 0 }
      Feedbacks {
        Feedback.on(AnyState.self, strategy: .cancelPrevious, perform: load)
      }
      Counter.transitions
    }
    #expect(system.state == 28)
  }
}
