import FeedbackLoop
import FeedbackLoopDeclarative

/// W2d: W2 written with the declarative DSL (`FeedbackLoopDeclarative`): the
/// same counter, a transition instead of a reducer function, a declared
/// feedback answering each state below `n` with the next event. Reported as
/// a ratio to the hand-written W2 of the same run.
public enum DeclaredPingPong {
  public enum Action: Equatable, Sendable { case increment }

  public static let workload = Workload(
    id: "W2d", summary: "100,000 round trips, declared with the DSL", operations: PingPong.roundTrips, runs: 21,
    makeTrial: { trial(roundTrips: PingPong.roundTrips) })

  public static func trial(roundTrips n: Int) -> Trial {
    let slot = Slot<FeedbackLoop.System<Int, Action>>()
    return Trial(
      run: {
        let system = FeedbackLoop.System<Int, Action> {
          InitialState { 0 }
          Feedbacks {
            Feedback.on(.case("below \(n)") { $0 < n ? $0 : nil }) { _ in .send(.increment) }
          }
          Transitions<Int, Action> {
            From(AnyState.self) { count in
              On(Action.increment, transitionTo: .any) { count() + 1 }
            }
          }
        }
        await system.waitUntil { $0 == n }
        slot.value = system
      },
      finish: {
        guard let system = slot.value else { return check(false, "W2d made no system") }
        check(system.state == n, "W2d ended at \(system.state)")
        system.stop()
      })
  }
}
