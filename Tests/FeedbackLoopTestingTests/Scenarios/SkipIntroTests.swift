import FeedbackLoop
import FeedbackLoopScenarios
import FeedbackLoopTesting
import Testing

@Suite("Skip intro", .runsLeftoverJobs)
struct SkipIntroTests {
  /// The skip-intro system with a player whose seeks take 0.5 s on the test clock.
  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  static func make() -> (TestSystem<SkipIntro.State, SkipIntro.Event>, FakePlayer) {
    let clock = TestClock()
    let player = FakePlayer(clock: clock)
    let intro = TestSystem(
      initial: .hidden, reduceReturning: SkipIntro.reduce, feedbacks: SkipIntro.feedbacks(player: player), clock: clock)
    return (intro, player)
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func whenTheIntroStartsACountdownFromTenShowsAndTicksEachSecond() {
    let (intro, player) = Self.make()
    intro.send(.hasIntroStarted(true)) { $0 = .showing(secondsLeft: 10) }
    for secondsLeft in stride(from: 9, through: 1, by: -1) {
      intro.advance(by: .seconds(1))
      intro.receive(.secondsLeftChanged(secondsLeft)) { $0 = .showing(secondsLeft: secondsLeft) }
    }
    #expect(intro.now == TestClock.Instant(offset: .seconds(9)))
    #expect(player.seeks.isEmpty)
    intro.skipInFlightEffects()  // the last tick
    intro.finish()
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func atZeroThePlayerSeeksPastTheIntroAndTheButtonHidesWhenTheSeekCompletes() throws {
    let (intro, player) = Self.make()
    intro.send(.hasIntroStarted(true)) { $0 = .showing(secondsLeft: 10) }
    intro.advance(by: .seconds(9))
    for secondsLeft in stride(from: 9, through: 1, by: -1) {
      intro.receive(.secondsLeftChanged(secondsLeft)) { $0 = .showing(secondsLeft: secondsLeft) }
    }
    intro.advance(by: .seconds(1))
    intro.receive(.secondsLeftChanged(0)) { $0 = .skipping }
    #expect(player.seeks == [SkipIntro.introEnd])
    let seek = try #require(intro.effectsInFlight.first)
    #expect(seek.feedback.name == "seek past the intro")
    #expect(seek.startedAt == TestClock.Instant(offset: .seconds(10)))

    // The button stays while the seek runs, and hides when it completes.
    intro.advance(by: .milliseconds(499))
    #expect(intro.state == .skipping)
    intro.advance(by: .milliseconds(1))
    intro.receive(.didSkipIntro) { $0 = .hidden }
    intro.finish()
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func runningTheClockPlaysTheWholeCountdownAndSeek() {
    let (intro, _) = Self.make()
    intro.send(.hasIntroStarted(true)) { $0 = .showing(secondsLeft: 10) }
    intro.run()
    for secondsLeft in stride(from: 9, through: 1, by: -1) {
      intro.receive(.secondsLeftChanged(secondsLeft)) { $0 = .showing(secondsLeft: secondsLeft) }
    }
    intro.receive(.secondsLeftChanged(0)) { $0 = .skipping }
    intro.receive(.didSkipIntro) { $0 = .hidden }
    #expect(intro.now == TestClock.Instant(offset: .milliseconds(10_500)))
    intro.finish()
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func whenTheIntroStopsBeforeZeroTheButtonHidesAndNothingSeeks() {
    let (intro, player) = Self.make()
    intro.send(.hasIntroStarted(true)) { $0 = .showing(secondsLeft: 10) }
    intro.advance(by: .seconds(3))
    intro.receive(.secondsLeftChanged(9)) { $0 = .showing(secondsLeft: 9) }
    intro.receive(.secondsLeftChanged(8)) { $0 = .showing(secondsLeft: 8) }
    intro.receive(.secondsLeftChanged(7)) { $0 = .showing(secondsLeft: 7) }
    intro.send(.hasIntroStarted(false)) { $0 = .hidden }
    intro.advance(by: .seconds(60))
    #expect(player.seeks.isEmpty)
    intro.finish()
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func theTransitionsOfTheReducer() {
    let transitions = TransitionAssertions(reduceReturning: SkipIntro.reduce)
    transitions.assertThat(from: .hidden, on: .hasIntroStarted(true), newStateIs: .showing(secondsLeft: 10))
    transitions.assertThat(
      from: .showing(secondsLeft: 2), on: .secondsLeftChanged(1), newStateIs: .showing(secondsLeft: 1))
    transitions.assertThat(from: .showing(secondsLeft: 1), on: .secondsLeftChanged(0), newStateIs: .skipping)
    transitions.assertThat(from: .skipping, on: .didSkipIntro, newStateIs: .hidden)
    transitions.assertThatStateIsUnchanged(from: .hidden, on: .hasIntroStarted(false))
    transitions.assertThatStateIsUnchanged(from: .showing(secondsLeft: 4), on: .secondsLeftChanged(4))
  }
}
