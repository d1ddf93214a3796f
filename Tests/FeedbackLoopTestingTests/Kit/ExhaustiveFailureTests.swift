import FeedbackLoop
import FeedbackLoopTesting
import Testing

/// The kit's own failing cases: each kind of mismatch is reported, with the
/// message it prints and the line of the assertion. The failures are
/// collected by a reporter of the test's own, so that these tests check
/// them instead of failing.
@Suite("Exhaustive mode reports each kind of mismatch", .runsLeftoverJobs)
struct ExhaustiveFailureTests {
  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func aStateChangeOtherThanAssertedIsReportedWithADiffAtTheAssertion() throws {
    let log = FailureLog()
    let hud = Fixtures.hud(reporting: log)
    let line: UInt = #line + 1
    hud.send(.tap) { $0.isVisible = true }  // interactions is not asserted
    hud.skipInFlightEffects()
    hud.finish()

    let failure = try #require(log.failures.first)
    #expect(log.kinds == [.stateMismatch])
    #expect(failure.location.line == line)
    #expect("\(failure.location.fileID)" == "FeedbackLoopTestingTests/ExhaustiveFailureTests.swift")
    #expect(failure.message.hasPrefix("Sending HUD.Event.tap changed the state otherwise than asserted:\n\n"))
    #expect(failure.message.contains("−   interactions: 0\n  +   interactions: 1"))
    #expect(!failure.message.contains("isVisible: false"))
    #expect(failure.message.hasSuffix("(Expected: −, Actual: +)"))
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func aStateChangeThatTheTestDidNotAssertIsReported() throws {
    let log = FailureLog()
    let hud = Fixtures.hud(reporting: log)
    hud.send(.tap)
    hud.skipInFlightEffects()
    hud.finish()

    let failure = try #require(log.failures.first)
    #expect(log.kinds == [.stateMismatch])
    #expect(failure.message.hasPrefix("Sending HUD.Event.tap changed the state, but the test asserted no change:"))
    #expect(failure.message.contains("−   isVisible: false,\n  +   isVisible: true,"))
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func aReceivedEventThatChangesTheStateOtherwiseThanAssertedIsReported() throws {
    let log = FailureLog()
    let hud = Fixtures.hud(reporting: log)
    hud.send(.tap) {
      $0.isVisible = true
      $0.interactions = 1
    }
    hud.advance(by: .seconds(3))
    let line: UInt = #line + 1
    hud.receive(.hide) { $0.interactions = 0 }
    hud.finish()

    let failure = try #require(log.failures.first)
    #expect(log.kinds == [.stateMismatch])
    #expect(failure.location.line == line)
    #expect(failure.message.hasPrefix("Receiving HUD.Event.hide changed the state otherwise than asserted:"))
    #expect(
      failure.message.contains(
        "−   isVisible: true,\n  +   isVisible: false,\n  −   interactions: 0\n  +   interactions: 1"))
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func receivingAnotherEventThanTheNextOneIsReportedWithBoth() throws {
    let log = FailureLog()
    let hud = Fixtures.hud(reporting: log)
    hud.send(.tap) {
      $0.isVisible = true
      $0.interactions = 1
    }
    hud.advance(by: .seconds(3))
    hud.receive(.interact)
    hud.finish()

    let failure = try #require(log.failures.first)
    #expect(log.kinds == [.unexpectedEvent])
    #expect(
      failure.message.hasPrefix(
        "Expected to receive HUD.Event.interact, but received HUD.Event.hide, "
          + "from #0 hide after the last interaction effect 1 for 1, at 3s first:"))
    #expect(failure.message.contains("− HUD.Event.interact\n  + HUD.Event.hide"))
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func expectingAnEventBeforeAnyArrivesIsReportedWithTheEffectsInFlight() throws {
    let log = FailureLog()
    let hud = Fixtures.hud(reporting: log)
    hud.send(.tap) {
      $0.isVisible = true
      $0.interactions = 1
    }
    hud.receive(.hide) { $0.isVisible = false }  // the clock did not move
    hud.skipInFlightEffects()
    hud.finish()

    let failure = try #require(log.failures.first)
    #expect(log.kinds == [.noEventReceived])
    #expect(
      failure.message == """
        Expected to receive HUD.Event.hide, but no event was received. Effects in flight:
          • #0 hide after the last interaction effect 1 for 1, started at 0s
        Advance the test clock to let the effects that wait on it go on.
        """)
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func anEventNotReceivedBeforeTheNextSendIsReported() throws {
    let log = FailureLog()
    let hud = Fixtures.hud(reporting: log)
    hud.send(.tap) {
      $0.isVisible = true
      $0.interactions = 1
    }
    hud.advance(by: .seconds(3))
    let line: UInt = #line + 1
    hud.send(.tap) {
      $0.isVisible = true
      $0.interactions = 2
    }
    hud.skipInFlightEffects()
    hud.finish()

    let failure = try #require(log.failures.first)
    #expect(log.kinds == [.eventsNotReceived])
    #expect(failure.location.line == line)
    #expect(
      failure.message == """
        The system received 1 event that the test did not assert with receive(_:) before sending HUD.Event.tap:
          • HUD.Event.hide, from #0 hide after the last interaction effect 1 for 1, at 3s
        """)
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func eventsNotReceivedByTheEndAreReported() throws {
    let log = FailureLog()
    let volume = TestSystem(
      initial: Volume.State(value: 13), reduceReturning: Volume.reduce, feedbacks: Volume.feedbacks(target: 15),
      reporter: log.reporter)
    volume.receive(.increase) { $0.value = 14 }
    volume.finish()

    let failure = try #require(log.failures.first)
    #expect(log.kinds == [.eventsNotReceived])
    #expect(
      failure.message == """
        The system received 1 event that the test did not assert with receive(_:) before the end of the test:
          • Volume.Event.increase, from #0 increase effect 2, at 0s
        """)
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func anEffectStillInFlightAtTheEndIsReportedWithItsFeedbackQueryAndStart() throws {
    let log = FailureLog()
    let hud = Fixtures.hud(reporting: log)
    hud.advance(by: .seconds(1))
    hud.send(.tap) {
      $0.isVisible = true
      $0.interactions = 1
    }
    let line: UInt = #line + 1
    hud.finish()

    let failure = try #require(log.failures.first)
    #expect(log.kinds == [.effectsInFlight])
    #expect(failure.location.line == line)
    #expect(
      failure.message == """
        1 effect is still in flight at the end of the test:
          • #0 hide after the last interaction effect 1 for 1, started at 1s

        Advance the test clock until they end, send the events that end them, or let them go with \
        skipInFlightEffects().
        """)
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func aTestSystemReleasedWithoutFinishMakesTheSameChecksWhereItWasCreated() throws {
    let log = FailureLog()
    let line: UInt = #line + 2
    do {
      let hud = Fixtures.hud(reporting: log)
      hud.send(.tap) {
        $0.isVisible = true
        $0.interactions = 1
      }
    }
    let failure = try #require(log.failures.first)
    #expect(log.kinds == [.effectsInFlight])
    #expect(failure.location.line == line)
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func anUnmappedErrorThatTheTestDidNotAssertIsReported() throws {
    let log = FailureLog()
    let system = TestSystem(
      initial: 0, reduceReturning: Fixtures.Failing.reduce, feedbacks: Fixtures.Failing.feedbacks,
      reporter: log.reporter)
    system.send(.go) { $0 = 1 }
    system.advance(by: .seconds(1))
    system.finish()

    // Logged to the test system's recorder, not printed.
    #expect(system.logs.records.map(\.level) == [.error])
    #expect(system.logs.messages == ["effect failed and its error is not mapped to an event"])
    let failure = try #require(log.failures.first)
    #expect(log.kinds == [.unmappedError])
    #expect(
      failure.message == """
        1 effect failed with an error that no catch mapped to an event, and the test did not assert it with \
        receiveUnmappedError() before the end of the test:
          • #0 fails effect 1 for 1, at 1s: Unmapped()
        """)
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func anUnmappedErrorIsAssertedWithReceiveUnmappedError() {
    let log = FailureLog()
    let system = TestSystem(
      initial: 0, reduceReturning: Fixtures.Failing.reduce, feedbacks: Fixtures.Failing.feedbacks,
      reporter: log.reporter)
    system.send(.go) { $0 = 1 }
    system.receiveUnmappedError()  // none yet
    system.advance(by: .seconds(1))
    system.receiveUnmappedError { $0 as? Fixtures.Unmapped == Fixtures.Unmapped() }
    system.finish()
    #expect(log.kinds == [.noEventReceived])
    #expect(log.failures.first?.message == "Expected an effect to fail with an unmapped error, but none did.")
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func anEventTheSystemDoesNotReduceIsReported() throws {
    let log = FailureLog()
    let system = TestSystem(reporter: log.reporter) { environment, monitor in
      let system = System(
        initial: 0, reduceReturning: Fixtures.Failing.reduce, environment: environment, monitor: monitor)
      system.stop()
      return system
    }
    system.send(.go)
    system.finish()

    let failure = try #require(log.failures.first)
    #expect(log.kinds == [.eventNotReduced])
    #expect(failure.message.hasPrefix("Sending Fixtures.Failing.Event.go: the event was not reduced."))
    #expect(failure.timeline?.contains("event discarded: Fixtures.Failing.Event.go, the system had stopped") == true)
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func drivingTheSystemAfterFinishIsReportedAsAMisuse() {
    let log = FailureLog()
    let hud = Fixtures.hud(reporting: log)
    hud.finish()
    hud.send(.tap)
    hud.advance(by: .seconds(1))
    hud.receive(.hide)
    #expect(log.kinds == [.misuse, .misuse, .misuse])
    #expect(
      log.failures.first?.message == "Sending HUD.Event.tap after finish(): the system under test has stopped.")
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func runningAClockThatNeverRunsOutIsReported() {
    let log = FailureLog()
    let ticker = TestSystem(
      initial: 0, reduceReturning: Fixtures.Ticker.reduce, feedbacks: Fixtures.Ticker.feedbacks, reporter: log.reporter)
    ticker.run(limit: 5)
    #expect(ticker.state == 5)
    ticker.skipReceivedEvents()
    ticker.skipInFlightEffects()
    ticker.finish()
    #expect(log.kinds == [.misuse])
    #expect(
      log.failures.first?.message
        == "run() stopped after 5 wakes of the test clock, at 5s: an effect sleeps again each time it wakes. "
        + "Use advance(by:) instead.")
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func aSystemWhoseEffectsNeverComeToRestIsReportedAndStopped() throws {
    let log = FailureLog()
    // Answers every state with an effect that sends an event, which makes
    // a new state, and so on, forever: each turn is a new effect task.
    let echo = Feedback<Int, Fixtures.Ticker.Event>.query({ $0 > 0 ? $0 : nil }) { _ in
      .run { send in send(.tick) }
    }
    let runaway = TestSystem(
      initial: 0, reduceReturning: Fixtures.Ticker.reduce, feedbacks: [echo], reporter: log.reporter)
    runaway.runawayLimit = 1_000
    let line: UInt = #line + 1
    runaway.send(.tick)
    #expect(runaway.state > 100)
    runaway.send(.tick)
    runaway.finish()

    let failure = try #require(log.failures.first)
    #expect(log.kinds == [.runaway, .misuse])
    #expect(failure.location.line == line)
    #expect(
      failure.message
        == "The system's effects ran 1000 steps without coming to rest: a feedback may answer each state with "
        + "an event that makes a new state, forever. The system under test is stopped.")
    #expect(failure.timeline?.contains("earlier entries not shown") == true)
    #expect(
      log.failures.last?.message
        == "Sending Fixtures.Ticker.Event.tick after the system under test was stopped as a runaway: the system "
        + "under test has stopped.")
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func everyFailureCarriesTheTimelineUpToIt() throws {
    let log = FailureLog()
    let hud = Fixtures.hud(reporting: log)
    hud.send(.tap) {
      $0.isVisible = true
      $0.interactions = 1
    }
    hud.advance(by: .seconds(3))
    hud.receive(.hide)

    let failure = try #require(log.failures.first)
    let timeline = try #require(failure.timeline)
    #expect(timeline.hasPrefix("Timeline (test clock time, what happened):\n  0s     started in\n"))
    #expect(timeline.contains("  0s     sent HUD.Event.tap\n"))
    #expect(timeline.contains("  0s     effect started: #0 hide after the last interaction effect 1 for 1\n"))
    #expect(
      timeline.contains("  3s     received HUD.Event.hide from #0 hide after the last interaction effect 1 for 1\n"))
    #expect(failure.description == failure.message + "\n\n" + timeline)
  }
}
