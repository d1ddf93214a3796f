import FeedbackLoop
import FeedbackLoopDeclarative
import FeedbackLoopTesting
import FeedbackLoopUI
import Testing

/// The code of MigratingFromFeedbackLibraries.md's "What to write instead":
/// one function per library, each line after an `// Instead of` comment is
/// the replacement the guide shows. Compiled here; the search runs in the
/// tests below.
enum Migration {
  enum Search {
    struct State: Sendable, Equatable {
      var query: String?
      var results: [String] = []
      var thumbnails: Set<Int> = []
      var isBannerVisible = false
    }

    enum Event: Sendable, Equatable {
      case search(String)
      case cancel
      case loaded([String])
      case failed
      case thumbnailsShown(Set<Int>)
      case thumbnailLoaded(Int)
      case showBanner
      case hideBanner
    }

    static func reduce(_ state: State, _ event: Event) -> State {
      var state = state
      switch event {
      case .search(let query): state.query = query
      case .cancel: state.query = nil
      case .loaded(let results):
        state.results = results
        state.query = nil
      case .failed: state.query = nil
      case .thumbnailsShown(let ids): state.thumbnails = ids
      case .thumbnailLoaded(let id): state.thumbnails.remove(id)
      case .showBanner: state.isBannerVisible = true
      case .hideBanner: state.isBannerVisible = false
      }
      return state
    }
  }

  struct SearchAPI: Sendable {
    var search: @Sendable (String) async throws -> [String]
    var thumbnail: @Sendable (Int) async throws -> Void
  }

  static func rxFeedback(api: SearchAPI, notifications: AsyncStream<Void>) async {
    // Instead of react(request:effects:):
    let search = Feedback<Search.State, Search.Event>.query(\.query) { query in
      .task {
        .loaded(try await api.search(query))
      } catch: { _ in
        .failed
      }
    }
    // Instead of react(requests:effects:):
    let thumbnails = Feedback<Search.State, Search.Event>.requests(\.thumbnails) { id in
      .task {
        try await api.thumbnail(id)
        return .thumbnailLoaded(id)
      }
    }
    // Instead of Observable.timer / .delay(_:scheduler:):
    let banner = Feedback<Search.State, Search.Event>.predicate(\.isBannerVisible, whenFalse: .cancelRunning) { _ in
      .after(.seconds(3), send: .hideBanner)
    }
    // Instead of bind(self) { Bindings(subscriptions:events:) } for a button:
    let buttons = Input<Search.Event>()
    // Instead of an Observable<Event> of notifications:
    let refreshes = Feedback<Search.State, Search.Event>.input(notifications.map { Search.Event.search("") })
    // Instead of Observable.just(event), Observable.empty():
    let immediate = Feedback<Search.State, Search.Event>.onEvent { event, _ in
      event == .cancel ? .send(.hideBanner) : .none
    }
    // Instead of Observable.system(initialState:reduce:scheduler:feedback:):
    let system = System(
      initial: Search.State(), reduceReturning: Search.reduce,
      feedbacks: [search, thumbnails, banner, immediate, .input(buttons), refreshes])
    // Instead of a button's rx.tap bound to the events:
    buttons.send(.search("swift"))
    // Instead of system.subscribe(onNext:):
    for await state in system.states.prefix(1) { print(state.results) }
    // Instead of distinctUntilChanged() then flatMapLatest: the query feedback above.
  }

  static func reactiveFeedback(api: SearchAPI, searches: AsyncStream<String>) {
    // Instead of Feedback(lensing:effects:) and Feedback(skippingRepeated:effects:):
    let search = Feedback<Search.State, Search.Event>.query(\.query) { query in
      .task {
        .loaded(try await api.search(query))
      } catch: { _ in
        .failed
      }
    }
    // Instead of Feedback(predicate:effects:):
    let banner = Feedback<Search.State, Search.Event>.predicate(\.isBannerVisible, whenFalse: .cancelRunning) { _ in
      .after(.seconds(3), send: .hideBanner)
    }
    // Instead of Feedback(deriving:effects:):
    let firstResults = Feedback<Search.State, Search.Event>.deriving({ states in
      states.filter { !$0.results.isEmpty }.prefix(1)
    }) { _ in .send(.showBanner) }
    // Instead of Feedback(events:) over an input signal:
    let typed = Feedback<Search.State, Search.Event>.input(searches.map { Search.Event.search($0) })
    // Instead of flatMap(.concat) in an effect's feedback:
    let queued = Feedback<Search.State, Search.Event>.query(\.query, strategy: .queue) { query in
      .task {
        .loaded(try await api.search(query))
      } catch: { _ in
        .failed
      }
    }
    // Instead of SignalProducer.system(initial:scheduler:reduce:feedbacks:) and Loop(initial:reduce:feedbacks:):
    let loop = System(initial: Search.State(), reduceReturning: Search.reduce, feedbacks: [search, banner, typed])
    // Instead of loop.send(_:):
    loop.send(.search("swift"))
    // Instead of loop.producer.map(\.results):
    let results = loop.states.map(\.results)
    // Instead of TestScheduler:
    let executor = ManualTaskExecutor()
    let clock = TestClock(executor: executor)
    let tested = System(
      initial: Search.State(), reduceReturning: Search.reduce, feedbacks: [banner],
      environment: SystemEnvironment(clock: clock, effectExecutor: executor))
    tested.send(.showBanner)
    clock.advance(by: .seconds(3))
    _ = (firstResults, queued, results)
  }

  @MainActor
  static func combineFeedback(api: SearchAPI) async {
    // Instead of a Reducer<State, Event> that changes the state in place:
    let reduce: @Sendable (inout Search.State, Search.Event) -> Void = { state, event in
      state = Search.reduce(state, event)
    }
    // Instead of Feedback(effects:), called for every state:
    let everyState = Feedback<Search.State, Search.Event>.predicate({ _ in true }, whenFalse: .keepRunning) { state in
      state.isBannerVisible ? .after(.seconds(3), send: .hideBanner) : .none
    }
    // Instead of Feedback(lensing:effects:) and Feedback(skippingRepeated:effects:):
    let search = Feedback<Search.State, Search.Event>.query(\.query) { query in
      .task {
        .loaded(try await api.search(query))
      } catch: { _ in
        .failed
      }
    }
    // Instead of Feedback(predicate:effects:):
    let banner = Feedback<Search.State, Search.Event>.predicate(\.isBannerVisible, whenFalse: .cancelRunning) { _ in
      .after(.seconds(3), send: .hideBanner)
    }
    // Instead of Feedback.custom { state, consumer in ... }:
    let custom = Feedback<Search.State, Search.Event>.events { states in
      states.filter { $0.results.isEmpty && $0.query == nil }.map { _ in Search.Event.showBanner }
    }
    // Instead of Feedback.middleware { state in ... }, which sends nothing:
    let middleware = Feedback<Search.State, Search.Event>.onEvent(strategy: .merge) { event, state in
      .run { _ in print(event, state.results.count) }
    }
    // Instead of FlattenStrategy.merge:
    let thumbnails = Feedback<Search.State, Search.Event>.query(\.query, strategy: .merge) { query in
      .task {
        .loaded(try await api.search(query))
      } catch: { _ in
        .failed
      }
    }
    // Instead of Store<State, Event> / a ViewModel with @Published var state:
    let store = Store(
      initial: Search.State(), reduce: reduce,
      feedbacks: [everyState, search, banner, custom, middleware, thumbnails])
    // Instead of store.send(event:) and context.send(event:):
    store.send(.search("swift"))
    // Instead of store.scoped(to:event:):
    let results = store.scope(state: \.results, event: { $0 })
    // Instead of $state.sink { ... }:
    for await state in store.states.prefix(1) { print(state.results, results.state) }
  }

  struct Idle: StateProtocol, Equatable {}
  struct Loading: StateProtocol, Equatable { let query: String }
  struct Loaded: StateProtocol, Equatable { let results: [String] }
  struct SearchRequested: EventProtocol { let query: String }
  struct ResultsArrived: EventProtocol { let results: [String] }
  struct SearchFailed: EventProtocol {}

  @MainActor
  static func feedbacksLibrary(api: SearchAPI) async {
    // Instead of From(_:) { On(_:transitionTo:) } and AnyState:
    let transitions = Transitions<any StateProtocol, any EventProtocol> {
      From(Loading.self) { _ in
        On(ResultsArrived.self, transitionTo: Loaded.self) { event in Loaded(results: event.results) }
        On(SearchFailed.self, transitionTo: Idle())
      }
      From(AnyState.self) { _ in
        On(SearchRequested.self, transitionTo: Loading.self) { event in Loading(query: event.query) }
      }
    }
    // Instead of System { InitialState { } Feedbacks { } Transitions { } }:
    let search = DeclarativeSystem<any StateProtocol, any EventProtocol> {
      InitialState { Idle() }
      Feedbacks {
        // Instead of Feedback(on:strategy: .cancelOnNewState, perform:) returning a publisher:
        Feedback.on(Loading.self, strategy: .cancelPrevious) { loading in
          .task {
            ResultsArrived(results: try await api.search(loading.query))
          } catch: { _ in
            SearchFailed()
          }
        }
        // Instead of .continueOnNewState:
        Feedback.on(Loaded.self, strategy: .queue) { loaded in
          .run { _ in print(loaded.results) }
        }
      }
      transitions
    }
    // Instead of let system = System { ... } and system.run():
    let system = search.start()
    // Instead of system.stream.sink { ... }:
    for await state in system.states.prefix(1) { print(state) }
    // Instead of UISystem(viewStateFactory:) { ... }:
    let store = Store(search.start(isolation: .mainActor))
    // Instead of uiSystem.emit(_:):
    store.send(SearchRequested(query: "swift"))
    // Instead of transitions.assertThat(from:on:newStateIs:) (FeedbacksTest):
    let loading = transitions.reduce(Idle(), SearchRequested(query: "swift"))
    #expect(loading as? Loading == Loading(query: "swift"))
  }

  @MainActor
  static func composableArchitecture(api: SearchAPI) {
    // Instead of returning .run from the reducer, and .cancellable(id:cancelInFlight: true):
    let search = LiftableFeedback<Search.State, Search.Event>.query(\.query) { query in
      .task {
        .loaded(try await api.search(query))
      } catch: { _ in
        .failed
      }
    }
    // Instead of .cancel(id:): the reducer sets the query to nil (case .cancel).
    // Instead of @Reducer struct Feature { var body: some Reducer { Reduce { ... } } }:
    let feature = Feature(name: "search", reducer: Reducer(reduceReturning: Search.reduce), feedbacks: [search])
    // Instead of @Dependency(\.continuousClock) and clock.sleep(for:):
    let banner = LiftableFeedback<Search.State, Search.Event>.predicate(\.isBannerVisible, whenFalse: .cancelRunning) {
      _ in
      .run { send in
        try await send.clock.sleep(for: .seconds(3))
        send(.hideBanner)
      }
    }
    // Instead of an effect started by an action alone (analytics):
    let analytics = Feedback<Search.State, Search.Event>.onEvent(strategy: .merge) { event, _ in
      guard case .search(let query) = event else { return .none }
      return .run { _ in print("searched", query) }
    }
    // Instead of Scope(state: \.search, action: \.search) { Search() }:
    let toSearch = EventPath<App.Event, Search.Event>(
      embed: App.Event.search, extract: { if case .search(let event) = $0 { event } else { nil } })
    let app = feature.lifted(state: \App.State.search, event: toSearch).feature
    // Instead of .ifLet(\.detail, action: \.detail):
    let detail = feature.lifted(optional: \App.State.detail, event: toSearch).feature
    // Instead of Store(initialState:) { App() }:
    let store = Store(System(initial: App.State(), feature: .combine(name: "app", app, detail), isolation: .mainActor))
    // Instead of store.scope(state: \.search, action: \.search):
    let searchStore = store.scope(state: \.search, event: App.Event.search)
    // Instead of TestStore, store.send, store.receive and clock.advance:
    let test = TestSystem(
      initial: Search.State(), feature: Feature(name: "search", reducer: feature.reducer, feedbacks: [banner]))
    test.send(.showBanner) { $0.isBannerVisible = true }
    test.advance(by: .seconds(3))
    test.receive(.hideBanner) { $0.isBannerVisible = false }
    _ = (analytics, searchStore)
  }

  enum App {
    struct State: Sendable, Equatable {
      var search = Search.State()
      var detail: Search.State?
    }

    enum Event: Sendable, Equatable {
      case search(Search.Event)
    }
  }
}
