import FeedbackLoop
import FeedbackLoopTesting
import Testing

/// The query feedback guide's code (QueryFeedback.md), and the tests that
/// hold its timeline.
enum QueryGuide {
  enum Search {
    struct State: Sendable, Equatable {
      var text = ""
      var results: [String] = []
    }

    enum Event: Sendable, Equatable {
      case textChanged(String)
      case loaded([String])
      case failed
    }

    static func reduce(_ state: inout State, _ event: Event) {
      switch event {
      case .textChanged(let text): state.text = text
      case .loaded(let results): state.results = results
      case .failed: state.results = []
      }
    }

    /// The search to run: the text, once it has two letters.
    static func query(_ state: State) -> String? {
      state.text.count >= 2 ? state.text : nil
    }

    static func feedbacks(
      search: @escaping @Sendable (String) async throws -> [String]
    ) -> [Feedback<State, Event>] {
      [
        Feedback.query(query, name: "search") { text in
          .task {
            .loaded(try await search(text))
          } catch: { _ in
            .failed
          }
        }
      ]
    }
  }
}

@Suite struct QueryGuideTests {
  @Test("G4 the query guide's timeline: nil starts nothing, a change replaces, an equal query keeps, nil cancels")
  func timeline() {
    let clock = TestClock(executor: ManualTaskExecutor())
    let asked = Calls()
    let search = TestSystem(
      initial: QueryGuide.Search.State(), reduce: QueryGuide.Search.reduce,
      feedbacks: QueryGuide.Search.feedbacks { text in
        asked.record(text)
        try await clock.sleep(for: .milliseconds(100))
        return ["\(text) 1", "\(text) 2"]
      },
      clock: clock)

    search.send(.textChanged("s")) { $0.text = "s" }
    search.send(.textChanged("sw")) { $0.text = "sw" }
    search.advance(by: .milliseconds(50))
    search.send(.textChanged("swi")) { $0.text = "swi" }
    search.advance(by: .milliseconds(100))
    search.receive(.loaded(["swi 1", "swi 2"])) { $0.results = ["swi 1", "swi 2"] }
    search.send(.textChanged("")) { $0.text = "" }
    search.send(.textChanged("sw")) { $0.text = "sw" }
    search.send(.textChanged("")) { $0.text = "" }
    search.advance(by: .seconds(1))
    search.finish()
    #expect(asked.values == ["sw", "swi", "sw"])
  }
}
