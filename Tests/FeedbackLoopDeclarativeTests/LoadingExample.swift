import FeedbackLoop
import FeedbackLoopDeclarative

/// The loading / loaded / error example, in the Feedbacks library's protocol
/// style, its transitions defined apart and gathered, as the Feedbacks library shows.
enum Loader {
  struct LoadingState: StateProtocol, Equatable { let page: Int }
  struct LoadedState: StateProtocol, Equatable {
    let page: Int
    let data: [String]
  }
  struct ErrorState: StateProtocol, Equatable {}
  struct DataIsLoaded: EventProtocol { let data: [String] }
  struct LoadingHasFailed: EventProtocol {}
  struct RefreshEvent: EventProtocol {}

  static let loadingTransitions = From(LoadingState.self) { state in
    On(DataIsLoaded.self, transitionTo: LoadedState.self) { event in
      LoadedState(page: state.page, data: event.data)
    }
    On(LoadingHasFailed.self, transitionTo: ErrorState())
  }

  static let loadedTransitions = From(LoadedState.self) { state in
    On(RefreshEvent.self, transitionTo: LoadingState.self) {
      LoadingState(page: state.page)
    }
  }

  static let errorTransitions = From(ErrorState.self) {
    On(AnyEvent.self, transitionTo: LoadingState(page: 1))
  }

  static let transitions = Transitions {
    loadingTransitions
    loadedTransitions
    errorTransitions
  }

  struct Failure: Error {}

  /// The system; `load` fetches a page (the tests time it on their clock).
  static func system(
    load: @escaping @Sendable (Int, any Clock<Duration>) async throws -> [String]
  ) -> DeclarativeSystem<any StateProtocol, any EventProtocol> {
    DeclarativeSystem {
      InitialState {
        LoadingState(page: 1)
      }
      Feedbacks {
        Feedback.on(LoadingState.self, strategy: .cancelPrevious) { state, send in
          do {
            send(DataIsLoaded(data: try await load(state.page, send.clock)))
          } catch is CancellationError {
          } catch {
            send(LoadingHasFailed())
          }
        }
      }
      transitions
    }
  }
}

/// The same feature with enums, matched by case, as most Swift code models
/// it; its state is `Equatable`, so the testing kit's `TestSystem` checks it.
enum Pages {
  enum Phase: Equatable, Sendable {
    case loading(page: Int)
    case loaded(page: Int, items: [String])
    case failed(page: Int)

    var loading: Int? { if case .loading(let page) = self { page } else { nil } }
    var loaded: (page: Int, items: [String])? {
      if case .loaded(let page, let items) = self { (page, items) } else { nil }
    }
    var failed: Int? { if case .failed(let page) = self { page } else { nil } }
  }

  enum Action: Equatable, Sendable {
    case loaded([String])
    case failed
    case refresh

    var loadedItems: [String]? { if case .loaded(let items) = self { items } else { nil } }
  }

  static func declaration(
    load: @escaping @Sendable (Int) async throws -> [String]
  ) -> DeclarativeSystem<Phase, Action> {
    DeclarativeSystem {
      InitialState { .loading(page: 1) }
      Feedbacks {
        Feedback.on(.case("loading", \Phase.loading)) { page in
          .task {
            .loaded(try await load(page))
          } catch: { _ in
            .failed
          }
        }
      }
      Transitions {
        From(.case("loading", \Phase.loading)) { page in
          On(.case("loaded", \Action.loadedItems), transitionTo: .case("loaded")) { items in
            .loaded(page: page(), items: items)
          }
          On(Action.failed, transitionTo: .case("failed")) { .failed(page: page()) }
        }
        From(.case("loaded", \Phase.loaded)) { loaded in
          On(Action.refresh, transitionTo: .case("loading")) { .loading(page: loaded.page) }
        }
        From(.case("failed", \Phase.failed)) { page in
          On(AnyEvent.self, transitionTo: .case("loading")) { _ in .loading(page: page()) }
        }
      }
    }
  }
}
