// Written by Scripts/tutorial-code from the tutorial's code files
// (Sources/FeedbackLoop/Documentation.docc/Resources): do not edit,
// edit those and run the script.
import FeedbackLoop
import FeedbackLoopTesting
import Testing

/// The reader's package after step 5 of chapter 4.
enum Chapter4Step5 {
  // MARK: lookup-04-01.swift

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
    static let reducer = Reducer<State, Event> { state, event in
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

    /// The screen as a feature: its reducer and its feedbacks, ready to be
    /// lifted into an app.
    static func feature(service: Service) -> Feature<State, Event> {
      Feature(
        name: "lookup", reducer: reducer,
        feedbacks: [
          .query(wordToLookUp, name: "define") { word in
            .run { send in
              // Wait for a pause in the typing: a new word cancels the wait.
              try await send.clock.sleep(for: .milliseconds(300))
              send(.defined(try await service.define(word)))
            } catch: { _ in
              .notFound
            }
          }
        ])
    }
  }

  // MARK: history-04-02.swift

  /// The second screen: the words looked up so far, the last first.
  enum History {
    struct State: Sendable, Equatable {
      var words: [String] = []
    }

    enum Event: Sendable, Equatable {
      case selected(String)
      case cleared
    }

    static let reducer = Reducer<State, Event> { state, event in
      switch event {
      case .selected:
        break  // The app decides what a selected word does.
      case .cleared:
        state.words = []
      }
    }

    static let feature = Feature(name: "history", reducer: reducer)
  }

  // MARK: app-04-04.swift

  /// The app: both screens, side by side.
  enum App {
    struct State: Sendable, Equatable {
      var lookup = Lookup.State()
      var history = History.State()
    }

    enum Event: Sendable, Equatable {
      case lookup(Lookup.Event)
      case history(History.Event)
    }

    /// The way from an app event to a screen's event, and back.
    static let toLookup = EventPath<Event, Lookup.Event>(
      embed: Event.lookup,
      extract: { if case .lookup(let event) = $0 { event } else { nil } })

    static let toHistory = EventPath<Event, History.Event>(
      embed: Event.history,
      extract: { if case .history(let event) = $0 { event } else { nil } })

    /// What the screens do to each other: a word defined goes to the top of
    /// the history, and a word selected there is looked up again.
    static let reducer = Reducer<State, Event> { state, event in
      switch event {
      case .lookup(.defined):
        state.history.words.removeAll { $0 == state.lookup.word }
        state.history.words.insert(state.lookup.word, at: 0)
      case .history(.selected(let word)):
        Lookup.reducer.reduce(&state.lookup, .wordChanged(word))
      case .lookup, .history:
        break
      }
    }

    static func feature(service: Lookup.Service) -> Feature<State, Event> {
      .combine(
        name: "app",
        Lookup.feature(service: service).lifted(state: \.lookup, event: toLookup).feature,
        History.feature.lifted(state: \.history, event: toHistory).feature,
        Feature(name: "app", reducer: reducer)
      )
    }
  }

  // MARK: app-tests-04-05.swift

  @Suite struct AppTests {
    let service = Lookup.Service { word in "\(word): a word." }

    @Test func aWordSelectedInTheHistoryIsLookedUpAgain() {
      let app = TestSystem(initial: App.State(), feature: App.feature(service: service))

      app.send(.lookup(.wordChanged("swift"))) { $0.lookup.word = "swift" }
      app.advance(by: .milliseconds(300))
      app.receive(.lookup(.defined("swift: a word."))) {
        $0.lookup.definition = "swift: a word."
        $0.history.words = ["swift"]
      }

      app.send(.lookup(.wordChanged("loop"))) { $0.lookup = Lookup.State(word: "loop") }
      app.advance(by: .milliseconds(300))
      app.receive(.lookup(.defined("loop: a word."))) {
        $0.lookup.definition = "loop: a word."
        $0.history.words = ["loop", "swift"]
      }

      app.send(.history(.selected("swift"))) { $0.lookup = Lookup.State(word: "swift") }
      app.advance(by: .milliseconds(300))
      app.receive(.lookup(.defined("swift: a word."))) {
        $0.lookup.definition = "swift: a word."
        $0.history.words = ["swift", "loop"]
      }
      app.finish()
    }
  }
}
