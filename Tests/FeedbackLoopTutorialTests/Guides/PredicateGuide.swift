import FeedbackLoop
import FeedbackLoopTesting
import Testing

/// The predicate feedback guide's code (PredicateFeedback.md), and the
/// tests that hold its timeline.
enum PredicateGuide {
  enum Editor {
    struct State: Sendable, Equatable {
      var text = ""
      var isDirty = false
    }

    enum Event: Sendable, Equatable {
      case edited(String)
      case reverted(String)
      case saved
    }

    static func reduce(_ state: inout State, _ event: Event) {
      switch event {
      case .edited(let text):
        state.text = text
        state.isDirty = true
      case .reverted(let text):
        state.text = text
        state.isDirty = false
      case .saved:
        state.isDirty = false
      }
    }

    /// Saves one second after the last edit, while there is something to save.
    static func feedbacks(
      save: @escaping @Sendable (String) async throws -> Void
    ) -> [Feedback<State, Event>] {
      [
        Feedback.predicate(\.isDirty, whenFalse: .cancelRunning, name: "autosave") { state in
          .run { send in
            try await send.clock.sleep(for: .seconds(1))
            try await save(state.text)
            send(.saved)
          }
        }
      ]
    }
  }
}

@Suite struct PredicateGuideTests {
  @Test("G5 the predicate guide's timeline: every dirty state restarts the save, a revert cancels it")
  func timeline() {
    let saved = Calls()
    let editor = TestSystem(
      initial: PredicateGuide.Editor.State(), reduce: PredicateGuide.Editor.reduce,
      feedbacks: PredicateGuide.Editor.feedbacks { text in saved.record(text) })

    editor.send(.edited("a")) {
      $0.text = "a"
      $0.isDirty = true
    }
    editor.advance(by: .milliseconds(500))
    editor.send(.edited("ab")) { $0.text = "ab" }
    editor.advance(by: .seconds(1))
    editor.receive(.saved) { $0.isDirty = false }
    #expect(saved.values == ["ab"])

    editor.send(.edited("abc")) {
      $0.text = "abc"
      $0.isDirty = true
    }
    editor.send(.reverted("ab")) {
      $0.text = "ab"
      $0.isDirty = false
    }
    editor.advance(by: .seconds(2))
    editor.finish()
    #expect(saved.values == ["ab"])
  }
}
