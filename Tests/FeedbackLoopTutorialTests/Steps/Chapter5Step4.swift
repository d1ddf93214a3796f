// Written by Scripts/tutorial-code from the tutorial's code files
// (Sources/FeedbackLoop/Documentation.docc/Resources): do not edit,
// edit those and run the script.
import FeedbackLoop
import FeedbackLoopTesting
import FeedbackLoopUI
import Observation
import Synchronization
import Testing
#if canImport(SwiftUI)
  import SwiftUI
#endif

/// The reader's package after step 4 of chapter 5.
enum Chapter5Step4 {
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

  // MARK: screen-05-02.swift

  /// The app's screen, whatever draws it: a store over the app's system.
  @MainActor
  enum Screen {
    static func makeStore(
      service: Lookup.Service, environment: SystemEnvironment = SystemEnvironment()
    ) -> Store<App.State, App.Event> {
      Store(
        System(
          initial: App.State(), feature: App.feature(service: service), isolation: .mainActor,
          environment: environment))
    }

    /// What the screen draws, read through Observation as SwiftUI reads a
    /// view's body: `redraw` is called when what it read changes.
    static func draw(
      _ store: Store<App.State, App.Event>, redraw: @escaping @Sendable () -> Void
    ) -> String {
      withObservationTracking {
        "\(store.lookup.word): \(store.lookup.definition ?? "…")"
      } onChange: {
        redraw()
      }
    }
  }

  // MARK: lookup-view-05-03.swift

  #if canImport(SwiftUI)
    /// The same screen in SwiftUI, on Apple platforms.
    struct LookupView: View {
      @State var store = Screen.makeStore(service: Lookup.Service { word in "\(word): a word." })

      var body: some View {
        VStack {
          TextField("Word", text: store.binding(\.lookup.word) { .lookup(.wordChanged($0)) })
          Text(store.lookup.definition ?? "…")
          List(store.history.words, id: \.self) { word in
            Button(word) { store.send(.history(.selected(word))) }
          }
        }
      }
    }
  #endif

  // MARK: screen-tests-05-04.swift

  /// Counts the redraws that Observation asks for.
  final class Redraws: Sendable {
    private let count = Atomic(0)
    func redraw() { count.add(1, ordering: .relaxed) }
    var total: Int { count.load(ordering: .relaxed) }
  }

  @Suite struct ScreenTests {
    @MainActor
    @Test func theScreenRedrawsWhenTheWordAndItsDefinitionChange() {
      let executor = ManualTaskExecutor()
      let clock = TestClock(executor: executor)
      let store = Screen.makeStore(
        service: Lookup.Service { word in "\(word): a word." },
        environment: SystemEnvironment(clock: clock, effectExecutor: executor))
      let redraws = Redraws()

      #expect(Screen.draw(store, redraw: redraws.redraw) == ": …")
      store.send(.lookup(.wordChanged("swift")))
      #expect(redraws.total == 1)
      #expect(Screen.draw(store, redraw: redraws.redraw) == "swift: …")

      executor.runUntilIdle()
      clock.advance(by: .milliseconds(300))  // the pause in the typing: the definition is sent
      store.processQueuedEvents()  // and reduced
      #expect(redraws.total == 2)
      #expect(Screen.draw(store, redraw: redraws.redraw) == "swift: swift: a word.")
    }
  }
}
