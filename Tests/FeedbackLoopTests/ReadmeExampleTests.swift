import FeedbackLoop
import FeedbackLoopScenarios
import FeedbackLoopTesting
import Testing

/// The README's example, verbatim but for the injected test clock, so that
/// it keeps compiling and doing what the README says.
@Suite(.runsLeftoverJobs) struct ReadmeExampleTests {
  enum Event: Sendable { case tap, hide }

  @Test("the README's HUD example shows at once and hides 3 s later")
  func readmeExample() async {
    let harness = Harness()
    let taps = Input<Event>()
    let hud = System(
      initial: false,  // is the HUD visible?
      reduceReturning: { visible, event in
        switch event {
        case .tap: !visible
        case .hide: false
        }
      },
      feedbacks: [
        .input(taps),
        // Hide 3 s after the HUD shows; a new state restarts the timer.
        Feedback.query({ $0 ? true : nil }) { _ in .after(.seconds(3), send: .hide) },
      ],
      environment: harness.environment
    )
    taps.send(.tap)
    #expect(hud.state == true)  // print(hud.state)  // true, at once
    let states = hud.states
    harness.clock.advance(by: .milliseconds(2_999))
    #expect(hud.state == true)
    harness.clock.advance(by: .milliseconds(1))
    var printed: [Bool] = []
    for await visible in states where !visible {
      printed.append(visible)  // print(visible)  // false, 3 s later
      break
    }
    #expect(printed == [false])
  }
}
