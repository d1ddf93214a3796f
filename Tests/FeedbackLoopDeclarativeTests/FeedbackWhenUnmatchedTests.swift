import FeedbackLoop
import FeedbackLoopDeclarative
import FeedbackLoopTesting
import Testing

/// G5 in the declarative layer: what a state a declared feedback's pattern
/// does not match does to the effect it is running.
@Suite(.runsLeftoverJobs) struct FeedbackWhenUnmatchedTests {
  enum HUD: Equatable, Sendable { case hidden, visible }
  enum Tap: Equatable, Sendable { case tap, hide }

  static let transitions = Transitions<HUD, Tap> {
    From(HUD.hidden) {
      On(Tap.tap, transitionTo: HUD.visible)
      On(Tap.hide, transitionTo: HUD.hidden)
    }
    From(HUD.visible) {
      On(Tap.tap, transitionTo: HUD.hidden)
      On(Tap.hide, transitionTo: HUD.hidden)
    }
  }

  /// Show at 0 s and hide by hand at 1 s, then wait: the events the
  /// feedback sent by 5 s.
  static func eventsSent(whenUnmatched: WhenPredicateIsFalse?) -> [Tap] {
    let executor = ManualTaskExecutor()
    let clock = TestClock(executor: executor)
    let sent = Recorder<Tap>()
    let hide: @Sendable (HUD) -> Effect<Tap> = { _ in .after(.seconds(3), send: .hide) }
    let system = System<HUD, Tap>(environment: SystemEnvironment(clock: clock, effectExecutor: executor)) {
      InitialState { HUD.hidden }
      Feedbacks {
        if let whenUnmatched {
          Feedback.on(.value(HUD.visible), strategy: .cancelPrevious, whenUnmatched: whenUnmatched, perform: hide)
            .onEventEmitted { sent.append($0) }
        } else {
          Feedback.on(.value(HUD.visible), strategy: .cancelPrevious, perform: hide)
            .onEventEmitted { sent.append($0) }
        }
      }
      Self.transitions
    }
    system.send(.tap)
    clock.advance(by: .seconds(1))
    system.send(.tap)
    clock.advance(by: .seconds(4))
    #expect(system.state == .hidden)
    return sent.all
  }

  @Test(
    "G5 a declared feedback with whenUnmatched: .cancelRunning cancels its effect when the state leaves the pattern")
  func test_G5_declaredWhenUnmatchedCancelRunning() {
    #expect(Self.eventsSent(whenUnmatched: .cancelRunning) == [])
  }

  @Test(
    "G5 a declared feedback keeps its effect running after the state leaves the pattern, by default and with .keepRunning"
  )
  func test_G5_declaredWhenUnmatchedKeepRunning() {
    #expect(Self.eventsSent(whenUnmatched: nil) == [.hide])
    #expect(Self.eventsSent(whenUnmatched: .keepRunning) == [.hide])
  }
}
