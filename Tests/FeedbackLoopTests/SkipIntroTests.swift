import FeedbackLoop
import FeedbackLoopScenarios
import FeedbackLoopTesting
import Testing

/// The skip-intro (FeedbackLoopScenarios' `SkipIntro`), with the
/// intro's start as an input feedback, on the core's own harness.
extension SkipIntro {
  static func feedbacks(introStarted: AsyncStream<Bool>, player: FakePlayer) -> [Feedback<State, Event>] {
    [.input(introStarted.map { Event.hasIntroStarted($0) })] + feedbacks(player: player)
  }
}

@Suite(.runsLeftoverJobs) struct SkipIntroTests {
  @Test("skip intro: the countdown ticks each second on the injected clock, then the player seeks and the button hides")
  func countdownSeekHide() {
    let harness = Harness()
    let introStarted = AsyncStream<Bool>.makeStream()
    let player = FakePlayer(clock: harness.clock)
    let system = System(
      initial: SkipIntro.State.hidden, reduceReturning: SkipIntro.reduce,
      feedbacks: SkipIntro.feedbacks(introStarted: introStarted.stream, player: player),
      environment: harness.environment)
    introStarted.continuation.yield(true)
    harness.settle()
    #expect(system.state == .showing(secondsLeft: 10))
    for secondsLeft in stride(from: 9, through: 1, by: -1) {
      harness.clock.advance(by: .seconds(1))
      #expect(system.state == .showing(secondsLeft: secondsLeft))
    }
    #expect(player.seeks.isEmpty)
    harness.clock.advance(by: .seconds(1))
    #expect(system.state == .skipping)
    #expect(player.seeks == [SkipIntro.introEnd])
    harness.clock.advance(by: .milliseconds(499))
    #expect(system.state == .skipping)
    harness.clock.advance(by: .milliseconds(1))
    #expect(system.state == .hidden)
  }

  @Test("skip intro: the intro ending early hides the button and stops the countdown")
  func introEndsEarly() {
    let harness = Harness()
    let introStarted = AsyncStream<Bool>.makeStream()
    let player = FakePlayer(clock: harness.clock)
    let system = System(
      initial: SkipIntro.State.hidden, reduceReturning: SkipIntro.reduce,
      feedbacks: SkipIntro.feedbacks(introStarted: introStarted.stream, player: player),
      environment: harness.environment)
    introStarted.continuation.yield(true)
    harness.clock.advance(by: .seconds(3))
    #expect(system.state == .showing(secondsLeft: 7))
    introStarted.continuation.yield(false)
    harness.clock.advance(by: .seconds(30))
    #expect(system.state == .hidden)
    #expect(player.seeks.isEmpty)
  }
}
