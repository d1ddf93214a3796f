import FeedbackLoop
import FeedbackLoopTesting
import Testing

@Suite("The HUD", .runsLeftoverJobs)
struct HUDTests {
  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func aTapShowsTheHUDAndASecondTapHidesItAtOnce() {
    let hud = TestSystem(initial: HUD.State(), reduce: HUD.reduce, feedbacks: HUD.feedbacks)
    hud.send(.tap) {
      $0.isVisible = true
      $0.interactions = 1
    }
    hud.send(.tap) {
      $0.isVisible = false
      $0.interactions = 2
    }
    // The hide timer went with the HUD: nothing is left to run.
    #expect(hud.effectsInFlight.isEmpty)
    hud.finish()
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func theHUDHidesThreeSecondsAfterTheLastInteraction() {
    let hud = TestSystem(initial: HUD.State(), reduce: HUD.reduce, feedbacks: HUD.feedbacks)
    hud.send(.tap) {
      $0.isVisible = true
      $0.interactions = 1
    }
    hud.advance(by: .milliseconds(2_999))
    #expect(hud.state.isVisible)
    hud.advance(by: .milliseconds(1))
    hud.receive(.hide) { $0.isVisible = false }
    #expect(hud.now == TestClock.Instant(offset: .seconds(3)))
    hud.finish()
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func eachInteractionStartsTheThreeSecondsAgain() throws {
    let hud = TestSystem(initial: HUD.State(), reduce: HUD.reduce, feedbacks: HUD.feedbacks)
    hud.send(.tap) {
      $0.isVisible = true
      $0.interactions = 1
    }
    hud.advance(by: .seconds(2))
    hud.send(.interact) { $0.interactions = 2 }
    let timer = try #require(hud.effectsInFlight.first)
    #expect(hud.effectsInFlight.count == 1)
    #expect(timer.feedback.name == "hide after the last interaction")
    #expect(timer.trigger == "2")
    #expect(timer.startedAt == TestClock.Instant(offset: .seconds(2)))

    hud.advance(by: .seconds(2))  // 4 s after the tap, 2 s after the interaction
    #expect(hud.state.isVisible)
    hud.advance(by: .seconds(1))
    hud.receive(.hide) { $0.isVisible = false }
    #expect(hud.now == TestClock.Instant(offset: .seconds(5)))
    hud.finish()
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func aTapOnTheHiddenHUDAfterItHidItselfShowsItAgain() {
    let hud = TestSystem(initial: HUD.State(), reduce: HUD.reduce, feedbacks: HUD.feedbacks)
    hud.send(.tap) {
      $0.isVisible = true
      $0.interactions = 1
    }
    hud.run()
    hud.receive(.hide) { $0.isVisible = false }
    hud.send(.tap) {
      $0.isVisible = true
      $0.interactions = 2
    }
    hud.run()
    hud.receive(.hide) { $0.isVisible = false }
    #expect(hud.now == TestClock.Instant(offset: .seconds(6)))
    hud.finish()
  }

  @Test func theTransitionsOfTheHUD() {
    let transitions = TransitionAssertions(HUD.reduce)
    transitions.assertThat(
      from: HUD.State(isVisible: false, interactions: 0), on: .tap,
      newStateIs: HUD.State(isVisible: true, interactions: 1))
    transitions.assertThat(
      from: HUD.State(isVisible: true, interactions: 1), on: .interact,
      newStateIs: HUD.State(isVisible: true, interactions: 2))
    transitions.assertThatStateIsUnchanged(from: HUD.State(isVisible: false, interactions: 2), on: .hide)
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func anIntegrationTestNamesOnlyTheMilestones() {
    let hud = TestSystem(
      initial: HUD.State(), reduce: HUD.reduce, feedbacks: HUD.feedbacks, exhaustivity: .off)
    hud.send(.tap) { $0.isVisible = true }
    hud.run()
    hud.receive(.hide) { $0.isVisible = false }
  }
}
