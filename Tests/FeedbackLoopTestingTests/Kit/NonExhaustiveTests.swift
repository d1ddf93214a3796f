import FeedbackLoop
import FeedbackLoopScenarios
import FeedbackLoopTesting
import Testing

@Suite("Non-exhaustive mode checks only what the test names", .runsLeftoverJobs)
struct NonExhaustiveTests {
  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func onlyTheFieldsTheAssertionSetsAreChecked() {
    let log = FailureLog()
    let hud = Fixtures.hud(reporting: log, exhaustivity: .off)
    hud.send(.tap) { $0.isVisible = true }  // interactions changed too, unnamed
    hud.send(.interact)  // no assertion: nothing checked
    hud.finish()  // the timer still runs: let go
    #expect(log.failures.isEmpty)
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func aNamedFieldWithAnotherValueIsStillReported() throws {
    let log = FailureLog()
    let hud = Fixtures.hud(reporting: log, exhaustivity: .off)
    hud.send(.tap) { $0.isVisible = false }
    hud.finish()

    let failure = try #require(log.failures.first)
    #expect(log.kinds == [.stateMismatch])
    #expect(
      failure.message.hasPrefix(
        "After sending HUD.Event.tap, the state does not have the values the test asserted:\n\n"))
    #expect(failure.message.contains("−   isVisible: false,\n  +   isVisible: true,"))
    #expect(!failure.message.contains("interactions: 0"))
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func receiveSkipsTheEventsBeforeTheOneItNames() {
    let log = FailureLog()
    let clock = TestClock()
    let intro = TestSystem(
      initial: .hidden, reduceReturning: SkipIntro.reduce,
      feedbacks: SkipIntro.feedbacks(player: FakePlayer(clock: clock)), clock: clock,
      exhaustivity: .off, reporter: log.reporter)
    intro.send(.hasIntroStarted(true))
    intro.run()
    intro.receive(.didSkipIntro) { $0 = .hidden }  // after ten ticks, unnamed
    intro.finish()
    #expect(log.failures.isEmpty)
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func anEventThatNeverCameIsStillReported() {
    let log = FailureLog()
    let volume = TestSystem(
      initial: Volume.State(value: 13), reduceReturning: Volume.reduce, feedbacks: Volume.feedbacks(target: 15),
      exhaustivity: .off, reporter: log.reporter)
    volume.receive(.decrease)
    volume.finish()
    #expect(log.kinds == [.unexpectedEvent])
    #expect(
      log.failures.first?.message == """
        Expected to receive Volume.Event.decrease, but it is not among the events received:
          • Volume.Event.increase, from #0 increase effect 1, at 0s
          • Volume.Event.increase, from #0 increase effect 2, at 0s
        """)
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func exhaustivityCanBeTurnedOffForPartOfATest() {
    let log = FailureLog()
    let hud = Fixtures.hud(reporting: log)
    hud.exhaustivity = .off
    hud.send(.tap) { $0.isVisible = true }
    hud.exhaustivity = .on
    hud.send(.tap) { $0.isVisible = false }  // interactions 1 → 2, unnamed
    hud.finish()
    #expect(log.kinds == [.stateMismatch])
  }
}
