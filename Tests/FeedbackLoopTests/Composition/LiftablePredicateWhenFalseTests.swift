import FeedbackLoop
import FeedbackLoopScenarios
import FeedbackLoopTesting
import Testing

/// G5 for a feature's predicate feedback: `whenFalse:` means on
/// `LiftableFeedback` what it means on `Feedback`, in the feature's own
/// system and lifted into a parent.
@Suite(.runsLeftoverJobs) struct LiftablePredicateWhenFalseTests {
  /// The HUD of the RxFeedback article's player: a tap toggles it, and it
  /// hides itself 3 s after it shows.
  enum Event: Sendable, Equatable { case tap, hide }

  static let reducer = Reducer<Bool, Event>(reduceReturning: { visible, event in
    switch event {
    case .tap: !visible
    case .hide: false
    }
  })

  static func hud(_ whenFalse: WhenPredicateIsFalse) -> Feature<Bool, Event> {
    Feature(
      name: "hud", reducer: reducer,
      feedbacks: [.predicate({ $0 }, whenFalse: whenFalse) { _ in .after(.seconds(3), send: .hide) }])
  }

  struct Screen: Sendable, Equatable { var hud: Bool = false }

  /// Show at 0 s and hide by hand at 1 s, then wait: the events reduced by 5 s.
  static func tapTapWait<State>(
    _ system: System<State, Event>, _ harness: Harness, _ activity: ActivityLog<State, Event>
  )
    -> [Event]
  {
    system.send(.tap)
    harness.clock.advance(by: .seconds(1))
    system.send(.tap)
    harness.clock.advance(by: .seconds(4))
    return activity.reducedEvents
  }

  @Test(
    "G5 a feature's predicate feedback with whenFalse: .cancelRunning cancels its effect at the first state where it is false",
    arguments: [false, true])
  func test_G5_liftableWhenFalseCancelRunning(lifted: Bool) {
    let expected: [Event] = [.tap, .tap]
    #expect(Self.run(.cancelRunning, lifted: lifted) == expected)
  }

  @Test(
    "G5 a feature's predicate feedback with whenFalse: .keepRunning keeps its effect through states where it is false",
    arguments: [false, true])
  func test_G5_liftableWhenFalseKeepRunning(lifted: Bool) {
    let expected: [Event] = [.tap, .tap, .hide]
    #expect(Self.run(.keepRunning, lifted: lifted) == expected)
  }

  static func run(_ whenFalse: WhenPredicateIsFalse, lifted: Bool) -> [Event] {
    let harness = Harness()
    if lifted {
      let activity = ActivityLog<Screen, Event>()
      let feature = hud(whenFalse).lifted(state: \Screen.hud, event: EventPath.identity)
      let system = System(
        initial: Screen(), feature: feature, environment: harness.environment, monitor: activity.monitor)
      return tapTapWait(system, harness, activity)
    } else {
      let activity = ActivityLog<Bool, Event>()
      let system = System(
        initial: false, feature: hud(whenFalse), environment: harness.environment, monitor: activity.monitor)
      return tapTapWait(system, harness, activity)
    }
  }
}
