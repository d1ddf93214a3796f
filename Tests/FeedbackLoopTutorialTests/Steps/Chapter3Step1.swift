// Written by Scripts/tutorial-code from the tutorial's code files
// (Sources/FeedbackLoop/Documentation.docc/Resources): do not edit,
// edit those and run the script.
import FeedbackLoop
import FeedbackLoopTesting
import Testing

/// The reader's package after step 1 of chapter 3.
enum Chapter3Step1 {
  // MARK: lookup-02-04.swift

  enum Lookup {
    /// Everything the screen shows: the word typed so far, and its
    /// definition once it has one.
    struct State: Sendable, Equatable {
      var word = ""
      var definition: String?
    }

    /// Everything that can happen: the user types, the dictionary answers.
    enum Event: Sendable, Equatable {
      case wordChanged(String)
      case defined(String)
      case notFound
    }

    /// The only place the state changes.
    static func reduce(_ state: inout State, _ event: Event) {
      switch event {
      case .wordChanged(let word):
        state.word = word
        state.definition = nil
      case .defined(let definition):
        state.definition = definition
      case .notFound:
        state.definition = "No definition of \(state.word)."
      }
    }

    /// Where definitions come from: a server in the app, a fake in tests.
    struct Service: Sendable {
      var define: @Sendable (String) async throws -> String
    }

    /// The word to look up: the one typed, until it has a definition.
    static func wordToLookUp(_ state: State) -> String? {
      state.word.isEmpty || state.definition != nil ? nil : state.word
    }

    static func feedbacks(service: Service) -> [Feedback<State, Event>] {
      [
        Feedback.query(wordToLookUp, name: "define") { word in
          .run { send in
            // Wait for a pause in the typing: a new word cancels the wait.
            try await send.clock.sleep(for: .milliseconds(300))
            send(.defined(try await service.define(word)))
          } catch: { _ in
            .notFound
          }
        }
      ]
    }

    static func start(
      service: Service, environment: SystemEnvironment = SystemEnvironment()
    ) -> System<State, Event> {
      System(initial: State(), reduce: reduce, feedbacks: feedbacks(service: service), environment: environment)
    }
  }

  // MARK: lookup-tests-03-01.swift

  @Suite struct LookupTests {
    /// A dictionary that knows every word, and answers at once.
    let service = Lookup.Service { word in "\(word): a word." }

    @Test func aWordIsDefinedAfterAPauseInTheTyping() {
      let lookup = TestSystem(
        initial: Lookup.State(), reduce: Lookup.reduce, feedbacks: Lookup.feedbacks(service: service))

      lookup.send(.wordChanged("swift")) { $0.word = "swift" }
      lookup.advance(by: .milliseconds(300))
      lookup.receive(.defined("swift: a word.")) { $0.definition = "swift: a word." }
      lookup.finish()
    }
  }
}
