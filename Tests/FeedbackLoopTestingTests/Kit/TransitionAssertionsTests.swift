import FeedbackLoopTesting
import Testing

@Suite("Transition assertions check a reducer in one line each", .runsLeftoverJobs)
struct TransitionAssertionsTests {
  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func transitionsThatHoldReportNothing() {
    let log = FailureLog()
    let volume = TransitionAssertions(reduceReturning: Volume.reduce, reporter: log.reporter)
    volume.assertThat(from: Volume.State(value: 10), on: .increase, newStateIs: Volume.State(value: 11))
    volume.assertThat(from: Volume.State(value: 10), on: .decrease, newStateIs: Volume.State(value: 9))
    let hud = TransitionAssertions(HUD.reduce, reporter: log.reporter)
    hud.assertThatStateIsUnchanged(from: HUD.State(isVisible: false, interactions: 2), on: .hide)
    #expect(log.failures.isEmpty)
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func anotherNewStateIsReportedWithADiffAtTheAssertion() throws {
    let log = FailureLog()
    let volume = TransitionAssertions(reduceReturning: Volume.reduce, reporter: log.reporter)
    let line: UInt = #line + 1
    volume.assertThat(from: Volume.State(value: 10), on: .increase, newStateIs: Volume.State(value: 12))

    let failure = try #require(log.failures.first)
    #expect(log.kinds == [.transition])
    #expect(failure.location.line == line)
    #expect(failure.timeline == nil)
    #expect(
      failure.message.hasPrefix(
        "From Volume.State(value: 10), on Volume.Event.increase, the new state is not the one expected:\n\n"))
    #expect(failure.message.contains("− Volume.State(value: 12)\n  + Volume.State(value: 11)"))
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func aChangeWhereNoneWasExpectedIsReported() throws {
    let log = FailureLog()
    let hud = TransitionAssertions(HUD.reduce, reporter: log.reporter)
    hud.assertThatStateIsUnchanged(from: HUD.State(), on: .tap)

    let failure = try #require(log.failures.first)
    #expect(log.kinds == [.transition])
    #expect(
      failure.message.hasPrefix(
        "From HUD.State(isVisible: false, interactions: 0), on HUD.Event.tap, the state changed, and it was "
          + "expected not to:"))
    #expect(failure.message.contains("−   isVisible: false,\n  +   isVisible: true,"))
  }
}
