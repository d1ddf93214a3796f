import FeedbackLoop
import FeedbackLoopScenarios
import FeedbackLoopTesting
import Testing

/// G5: what a state for which a predicate feedback's predicate is false does
/// to its running effect, said at the call site.
@Suite(.runsLeftoverJobs) struct PredicateWhenFalseTests {
  /// The HUD of the RxFeedback article's player: a tap toggles it, and it
  /// hides itself 3 s after it shows.
  enum Event: Sendable, Equatable { case tap, hide }

  static func reduce(_ visible: Bool, _ event: Event) -> Bool {
    switch event {
    case .tap: !visible
    case .hide: false
    }
  }

  static func hud(
    whenFalse: WhenPredicateIsFalse, harness: Harness, activity: ActivityLog<Bool, Event>
  ) -> System<Bool, Event> {
    let hide: @Sendable (Bool) -> Effect<Event> = { _ in .after(.seconds(3), send: .hide) }
    let feedback = Feedback<Bool, Event>.predicate({ $0 }, whenFalse: whenFalse, effects: hide)
    return System(
      initial: false, reduceReturning: Self.reduce, feedbacks: [feedback], environment: harness.environment,
      monitor: activity.monitor)
  }

  /// Show at 0 s and hide by hand at 1 s, then wait: the events reduced by 5 s.
  static func tapTapWait(_ system: System<Bool, Event>, _ harness: Harness, _ activity: ActivityLog<Bool, Event>)
    -> [Event]
  {
    system.send(.tap)
    harness.clock.advance(by: .seconds(1))
    system.send(.tap)
    harness.clock.advance(by: .seconds(4))
    return activity.reducedEvents
  }

  @Test(
    "G5 a predicate feedback with whenFalse: .cancelRunning cancels its effect at the first state where it is false")
  func test_G5_whenFalseCancelRunning() {
    let harness = Harness()
    let activity = ActivityLog<Bool, Event>()
    let system = Self.hud(whenFalse: .cancelRunning, harness: harness, activity: activity)
    // The hand hide cancelled the timer: no `.hide` arrives for a hidden HUD.
    #expect(Self.tapTapWait(system, harness, activity) == [.tap, .tap])
    #expect(activity.cancelled.count == 1)
    #expect(system.state == false)
  }

  @Test(
    "G5 a predicate feedback with whenFalse: .keepRunning keeps its effect running through states where it is false"
  )
  func test_G5_whenFalseKeepRunning() {
    let harness = Harness()
    let activity = ActivityLog<Bool, Event>()
    let system = Self.hud(whenFalse: .keepRunning, harness: harness, activity: activity)
    // The timer survives the hand hide and sends its `.hide` at 3 s.
    #expect(Self.tapTapWait(system, harness, activity) == [.tap, .tap, .hide])
    #expect(activity.cancelled.isEmpty)
  }

  @Test("G4 with whenFalse: .cancelRunning, an event the cancelled effect sent before the false state is never reduced")
  func test_G4_whenFalseCancelRunningDropsLateEvents() {
    let harness = Harness()
    let activity = ActivityLog<Bool, Event>()
    let relay = Input<Event>()
    let system = System(
      initial: false, reduceReturning: Self.reduce,
      feedbacks: [
        .input(relay),
        Feedback<Bool, Event>.predicate({ $0 }, whenFalse: .cancelRunning) { _ in
          // Sends `.hide` at once from its task; the task has not run yet
          // when the hand `.tap` makes the predicate false.
          .run { send in send(.hide) }
        },
      ],
      environment: harness.environment, monitor: activity.monitor)
    relay.send(.tap)  // visible: the effect is started, its task not run yet
    relay.send(.tap)  // hidden by hand: the effect is cancelled before it runs
    harness.settle()  // its task runs now and sends `.hide`, which is dropped
    #expect(activity.reducedEvents == [.tap, .tap])
    #expect(system.state == false)
  }
}
