import FeedbackLoopTesting
import PlayerExample
import Testing

@Suite("Player: the skip-intro countdown and its seek (the RxFeedback article)")
struct SkipIntroTests {
  /// A paused player at `position`, with a video player whose seeks take
  /// 0.5 s on the test clock.
  static func make(at position: Int) -> (TestSystem<Player.State, Player.Event>, SimulatedVideoPlayer) {
    let clock = TestClock()
    let video = SimulatedVideoPlayer(clock: clock)
    let player = TestSystem(
      initial: Player.State(position: position, isPlaying: false), reduce: Player.reduce,
      feedbacks: Player.feedbacks(player: video), clock: clock)
    return (player, video)
  }

  @Test func inTheIntroTheButtonCountsDownFromTenThenThePlayerSeeksPastTheIntro() throws {
    let (player, video) = Self.make(at: Player.introStart)
    player.receive(.hasIntroStarted(true)) { $0.skipIntro = .showing(secondsLeft: 10) }
    for secondsLeft in stride(from: 9, through: 1, by: -1) {
      player.advance(by: .seconds(1))
      player.receive(.secondsLeftChanged(secondsLeft)) { $0.skipIntro = .showing(secondsLeft: secondsLeft) }
    }
    #expect(video.seeks.isEmpty)
    player.advance(by: .seconds(1))
    player.receive(.secondsLeftChanged(0)) { $0.skipIntro = .skipping }
    #expect(video.seeks == [Player.introEnd])
    let seek = try #require(player.effectsInFlight.first)
    #expect(seek.feedback.name == "seek past the intro")

    // The button stays while the seek runs, and hides when it is done.
    player.advance(by: .milliseconds(499))
    #expect(player.state.skipIntro == .skipping)
    player.advance(by: .milliseconds(1))
    player.receive(.didSkipIntro) {
      $0.skipIntro = .hidden
      $0.position = Player.introEnd
    }
    player.receive(.hasIntroStarted(false))
    #expect(player.now == TestClock.Instant(offset: .milliseconds(10_500)))
    player.finish()
  }

  @Test func skippingAtOnceCancelsTheCountdown() {
    let (player, video) = Self.make(at: 30)
    player.receive(.hasIntroStarted(true)) { $0.skipIntro = .showing(secondsLeft: 10) }
    player.advance(by: .seconds(2))
    player.receive(.secondsLeftChanged(9)) { $0.skipIntro = .showing(secondsLeft: 9) }
    player.receive(.secondsLeftChanged(8)) { $0.skipIntro = .showing(secondsLeft: 8) }
    player.send(.skipIntroTapped) { $0.skipIntro = .skipping }
    #expect(player.effectsInFlight.map(\.feedback.name) == ["seek past the intro"])
    player.advance(by: .milliseconds(500))
    player.receive(.didSkipIntro) {
      $0.skipIntro = .hidden
      $0.position = Player.introEnd
    }
    player.receive(.hasIntroStarted(false))
    #expect(video.seeks == [Player.introEnd])
    player.finish()
  }

  @Test func jumpingOutOfTheIntroHidesTheButtonAndNothingSeeks() {
    let (player, video) = Self.make(at: 60)
    player.receive(.hasIntroStarted(true)) { $0.skipIntro = .showing(secondsLeft: 10) }
    player.send(.jumped(by: 10)) {
      $0.position = 70
      $0.interactions = 1
    }
    player.receive(.hasIntroStarted(false)) { $0.skipIntro = .hidden }
    player.advance(by: .seconds(30))
    #expect(video.seeks.isEmpty)
    player.finish()
  }

  @Test func whilePlayingTheVideoTicksIntoTheIntroAndTheButtonShows() {
    let clock = TestClock()
    let player = TestSystem(
      initial: Player.State(position: Player.introStart - 2, isPlaying: true), reduce: Player.reduce,
      feedbacks: Player.feedbacks(player: SimulatedVideoPlayer(clock: clock)), clock: clock)
    player.receive(.hasIntroStarted(false))
    player.advance(by: .seconds(1))
    player.receive(.ticked) { $0.position = Player.introStart - 1 }
    player.advance(by: .seconds(1))
    player.receive(.ticked) { $0.position = Player.introStart }
    player.receive(.hasIntroStarted(true)) { $0.skipIntro = .showing(secondsLeft: 10) }
    player.send(.playPauseTapped) {
      $0.isPlaying = false
      $0.interactions = 1
    }
    player.skipInFlightEffects()  // the countdown
    player.finish()
  }

  @Test func pausingCancelsThePlaybackTicker() {
    let clock = TestClock()
    let player = TestSystem(
      initial: Player.State(position: 100, isPlaying: true), reduce: Player.reduce,
      feedbacks: Player.feedbacks(player: SimulatedVideoPlayer(clock: clock)), clock: clock)
    player.receive(.hasIntroStarted(false))
    #expect(player.effectsInFlight.map(\.feedback.name) == ["playback"])
    player.advance(by: .seconds(1))
    player.receive(.ticked) { $0.position = 101 }
    player.send(.playPauseTapped) {
      $0.isPlaying = false
      $0.interactions = 1
    }
    #expect(player.effectsInFlight.isEmpty)
    player.advance(by: .seconds(5))
    player.finish()
  }

  @Test func theTransitionsOfTheSkipIntroButton() {
    let transitions = TransitionAssertions(Player.reduce)
    transitions.assertThat(
      from: Player.State(), on: .hasIntroStarted(true), newStateIs: Player.State(skipIntro: .showing(secondsLeft: 10)))
    transitions.assertThat(
      from: Player.State(skipIntro: .showing(secondsLeft: 1)), on: .secondsLeftChanged(0),
      newStateIs: Player.State(skipIntro: .skipping))
    transitions.assertThat(
      from: Player.State(position: 20, skipIntro: .skipping), on: .didSkipIntro,
      newStateIs: Player.State(position: Player.introEnd, skipIntro: .hidden))
    transitions.assertThatStateIsUnchanged(from: Player.State(), on: .secondsLeftChanged(3))
    transitions.assertThatStateIsUnchanged(from: Player.State(), on: .skipIntroTapped)
    transitions.assertThatStateIsUnchanged(from: Player.State(isPlaying: false), on: .ticked)
  }
}
