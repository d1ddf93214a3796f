import FeedbackLoop
import FeedbackLoopTesting
import Testing

@Suite("The timeline records what the system did, at test clock times", .runsLeftoverJobs)
struct TimelineTests {
  /// The timeline's entries, one word each, with their times in seconds.
  static func summary(_ timeline: Timeline<HUD.State, HUD.Event>) -> [String] {
    timeline.entries.map { entry in
      let what =
        switch entry.kind {
        case .started: "started"
        case .sent(let event, _, _): "sent \(event)"
        case .received(let event, _, _, _): "received \(event)"
        case .effectQueued(let id): "queued effect \(id.number)"
        case .effectStarted(let id): "started effect \(id.number)"
        case .effectCancelled(let id): "cancelled effect \(id.number)"
        case .effectFinished(let id): "finished effect \(id.number)"
        case .effectFailed(let id, _): "failed effect \(id.number)"
        case .eventDiscarded(let event, _): "discarded \(event)"
        case .stopped: "stopped"
        }
      return "\(entry.time.offset.components.seconds)s \(what)"
    }
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func itHoldsEventsStatesAndTheLifeOfEveryEffect() throws {
    let hud = TestSystem(initial: HUD.State(), reduce: HUD.reduce, feedbacks: HUD.feedbacks)
    hud.send(.tap) {
      $0.isVisible = true
      $0.interactions = 1
    }
    hud.advance(by: .seconds(1))
    hud.send(.interact) { $0.interactions = 2 }
    hud.advance(by: .seconds(3))
    hud.receive(.hide) { $0.isVisible = false }
    hud.finish()

    #expect(
      Self.summary(hud.timeline) == [
        "0s started", "0s sent tap", "0s started effect 1", "1s sent interact", "1s cancelled effect 1",
        "1s started effect 2", "4s received hide", "4s finished effect 2", "4s stopped",
      ])
    guard case .received(_, let source, let before, let after) = hud.timeline.entries[6].kind else {
      Issue.record("not a received event")
      return
    }
    #expect(before == HUD.State(isVisible: true, interactions: 2))
    #expect(after == HUD.State(isVisible: false, interactions: 2))
    guard case .effect(let effect) = source else {
      Issue.record("not from an effect")
      return
    }
    #expect(effect.feedback.name == "hide after the last interaction")
    #expect(effect.trigger == "2")
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func itReadsAsAStory() {
    let hud = TestSystem(initial: HUD.State(), reduce: HUD.reduce, feedbacks: HUD.feedbacks)
    hud.send(.tap) {
      $0.isVisible = true
      $0.interactions = 1
    }
    hud.send(.tap) {
      $0.isVisible = false
      $0.interactions = 2
    }
    hud.finish()
    let text = hud.timeline.description
    #expect(text.hasPrefix("Timeline (test clock time, what happened):\n  0s     started in\n"))
    #expect(text.contains("\n  0s     effect cancelled: #0 hide after the last interaction effect 1 for 1\n"))
    #expect(text.hasSuffix("\n  0s     stopped"))
  }
}
