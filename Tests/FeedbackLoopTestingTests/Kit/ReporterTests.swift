import FeedbackLoop
import FeedbackLoopTesting
import Testing

@Suite("The automatic reporter records failures in the running framework", .runsLeftoverJobs)
struct ReporterTests {
  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func underSwiftTestingAFailureIsAnIssueAtTheAssertionWithTheTimeline() {
    let line = #line + 3
    withKnownIssue {
      let hud = TestSystem(initial: HUD.State(), reduce: HUD.reduce, feedbacks: HUD.feedbacks)
      hud.send(.tap) { $0.isVisible = true }
      hud.skipInFlightEffects()
      hud.finish()
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined()
      return issue.sourceLocation?.line == line
        && issue.sourceLocation?.fileID == "FeedbackLoopTestingTests/ReporterTests.swift"
        && text.hasPrefix("Sending HUD.Event.tap changed the state otherwise than asserted:")
        && text.contains("Timeline (test clock time, what happened):")
    }
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func underSwiftTestingEffectsLeftRunningAreAnIssueWhereTheTestSystemWasMade() {
    let line = #line + 2
    withKnownIssue {
      let hud = TestSystem(initial: HUD.State(), reduce: HUD.reduce, feedbacks: HUD.feedbacks)
      hud.send(.tap) {
        $0.isVisible = true
        $0.interactions = 1
      }
    } matching: { issue in
      issue.sourceLocation?.line == line
        && issue.comments.map(\.rawValue).joined().hasPrefix("1 effect is still in flight at the end of the test:")
    }
  }

  @Test func aTransitionThatDoesNotHoldIsAnIssue() {
    withKnownIssue {
      TransitionAssertions(reduceReturning: Volume.reduce)
        .assertThat(from: Volume.State(value: 10), on: .increase, newStateIs: Volume.State(value: 12))
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().hasPrefix(
        "From Volume.State(value: 10), on Volume.Event.increase, the new state is not the one expected:")
    }
  }
}
