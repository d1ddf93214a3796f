#if canImport(SwiftUI)
  import FeedbackLoop
  import FeedbackLoopUI
  import SwiftUI

  // The views of the store article, compiled where SwiftUI exists. Their
  // logic (Counter, Search, the result-refresh prism) is tested on every
  // platform.

  /// The counter: reads members through the store, sends on tap, and binds
  /// controls to the state with bindings that send events.
  struct CounterView: View {
    @State private var store = Store(
      initial: Counter.State(), reduce: Counter.reduce, feedbacks: Counter.feedbacks)

    var body: some View {
      VStack {
        Text("\(store.count)")
        HStack {
          Button("−") { store.send(.decrement) }
          Button("+") { store.send(.increment) }
        }
        Stepper("Step \(store.step)", value: store.binding(\.step, send: Counter.Event.stepChanged))
        Toggle("Timer", isOn: store.binding(\.isTimerOn, send: Counter.Event.timerToggled))
      }
    }
  }

  /// The paginated search: the screen owns the store; the list reads the
  /// talk's result-refresh prism only.
  struct SearchView: View {
    let store: Store<Search.State, Search.Event>
    @State private var query = ""

    var body: some View {
      VStack {
        TextField("Search", text: $query)
          .onSubmit { store.send(.newSearch(query)) }
        ResultsView(store: store)
      }
    }
  }

  /// The results: re-rendered only when the result refresh changes.
  struct ResultsView: View {
    @State private var refresh: Store<Search.ResultRefresh?, Search.Event>

    init(store: Store<Search.State, Search.Event>) {
      _refresh = State(initialValue: store.project(filtering: Search.resultRefresh))
    }

    var body: some View {
      switch refresh.state {
      case nil:
        Text("Type a query")
      case .loading:
        ProgressView()
      case .empty:
        Text("No results")
      case .firstPage(let results), .nextPage(let results, _):
        List {
          ForEach(results, id: \.self) { Text($0) }
          Text("Loading more…")
            .onAppear { refresh.send(.loadNextPage) }
        }
      case .loadingNextPage(let results):
        List {
          ForEach(results, id: \.self) { Text($0) }
          ProgressView()
        }
      case .error(let results, let message):
        List {
          ForEach(results, id: \.self) { Text($0) }
          Button("\(message): retry") { refresh.send(.loadNextPage) }
        }
      }
    }
  }
#endif
