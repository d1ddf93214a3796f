import FeedbackLoopTesting
import PlayerExample
import Testing

@Suite("Player: the HUD's auto-hide (the RxFeedback article)")
struct HUDTests {
  /// A paused player outside the intro: only the HUD moves.
  static func make() -> (TestSystem<Player.State, Player.Event>, SimulatedVideoPlayer) {
    let clock = TestClock()
    let video = SimulatedVideoPlayer(clock: clock)
    let player = TestSystem(
      initial: Player.State(position: 100, isPlaying: false), reduce: Player.reduce,
      feedbacks: Player.feedbacks(player: video), clock: clock)
    player.receive(.hasIntroStarted(false))
    return (player, video)
  }

  @Test func aTapShowsTheHUDWhichHidesThreeSecondsLater() {
    let (player, _) = Self.make()
    player.send(.tapped) {
      $0.isHUDVisible = true
      $0.interactions = 1
    }
    player.advance(by: .milliseconds(2_999))
    #expect(player.state.isHUDVisible)
    player.advance(by: .milliseconds(1))
    player.receive(.hideHUD) { $0.isHUDVisible = false }
    player.finish()
  }

  @Test func eachInteractionStartsTheThreeSecondsAgain() throws {
    let (player, _) = Self.make()
    player.send(.tapped) {
      $0.isHUDVisible = true
      $0.interactions = 1
    }
    player.advance(by: .seconds(2))
    player.send(.jumped(by: 10)) {
      $0.position = 110
      $0.interactions = 2
    }
    let timer = try #require(player.effectsInFlight.first)
    #expect(timer.feedback.name == "hide the HUD")
    #expect(timer.trigger == "2")
    #expect(timer.startedAt == TestClock.Instant(offset: .seconds(2)))
    player.advance(by: .seconds(2))
    #expect(player.state.isHUDVisible)
    player.advance(by: .seconds(1))
    player.receive(.hideHUD) { $0.isHUDVisible = false }
    player.finish()
  }

  @Test func aSecondTapHidesTheHUDAtOnceAndCancelsItsTimer() {
    let (player, _) = Self.make()
    player.send(.tapped) {
      $0.isHUDVisible = true
      $0.interactions = 1
    }
    player.send(.tapped) {
      $0.isHUDVisible = false
      $0.interactions = 2
    }
    #expect(player.effectsInFlight.isEmpty)
    player.advance(by: .seconds(10))
    player.finish()
  }

  @Test func theTransitionsOfTheHUD() {
    let transitions = TransitionAssertions(Player.reduce)
    transitions.assertThat(
      from: Player.State(isHUDVisible: false, interactions: 0), on: .tapped,
      newStateIs: Player.State(isHUDVisible: true, interactions: 1))
    transitions.assertThat(
      from: Player.State(isPlaying: true, interactions: 3), on: .playPauseTapped,
      newStateIs: Player.State(isPlaying: false, interactions: 4))
    transitions.assertThat(
      from: Player.State(isHUDVisible: true, interactions: 2), on: .hideHUD,
      newStateIs: Player.State(isHUDVisible: false, interactions: 2))
    transitions.assertThat(
      from: Player.State(position: 5), on: .jumped(by: -10), newStateIs: Player.State(position: 0, interactions: 1))
  }
}
