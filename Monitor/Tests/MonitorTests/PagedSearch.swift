import FeedbackLoop
import FeedbackLoopDebugging
import FeedbackLoopTesting

/// The monitor's tests' system: seed 000's paginated search, the shape of the
/// examples' SearchExample (a query, pages loaded by a request feedback), kept
/// small and of its own so that the monitor's tests do not build the
/// examples' HTTP server and client. Each page takes one second of the test clock.
enum PagedSearch {
  struct State: Sendable, Equatable, Codable {
    var query = ""
    var results: [String] = []
    var loadingPage: Int?
    var nextPage: Int?
  }

  enum Event: Sendable, Equatable, Codable, TimeTravelEvent {
    case search(String)
    case loadNextPage
    case loaded(page: Int, results: [String])
    case travel(to: State)

    var travelDestination: State? {
      if case .travel(let state) = self { state } else { nil }
    }
  }

  struct PageRequest: Sendable, Equatable {
    var query: String
    var page: Int
  }

  static func reduce(_ state: inout State, _ event: Event) {
    switch event {
    case .search(let query):
      state = State(query: query, results: [], loadingPage: 1, nextPage: nil)
    case .loadNextPage:
      guard state.loadingPage == nil, let next = state.nextPage else { return }
      state.loadingPage = next
    case .loaded(let page, let results):
      guard state.loadingPage == page else { return }
      state.results += results
      state.loadingPage = nil
      state.nextPage = page < 3 ? page + 1 : nil
    case .travel:
      break
    }
  }

  static var feedbacks: [Feedback<State, Event>] {
    [
      Feedback.query(
        { state in state.loadingPage.map { PageRequest(query: state.query, page: $0) } }, name: "request"
      ) { request in
        let results = (0..<2).map { "\(request.query)-\(request.page)-\($0)" }
        return .after(.seconds(1), send: .loaded(page: request.page, results: results))
      }
    ]
  }
}

/// A test clock and a manual executor: effects run only when the test says.
struct Harness {
  let executor = ManualTaskExecutor()
  let clock: TestClock
  let environment: SystemEnvironment

  init() {
    clock = TestClock(executor: executor)
    environment = SystemEnvironment(clock: clock, effectExecutor: executor)
  }

  func search(recorder: Recorder<PagedSearch.State, PagedSearch.Event>) -> System<
    PagedSearch.State, PagedSearch.Event
  > {
    System(
      initial: PagedSearch.State(), reduce: TimeTravel.reducer(PagedSearch.reduce),
      feedbacks: PagedSearch.feedbacks, environment: environment, monitor: recorder.monitor)
  }

  /// Moments 0 to 4: the start, loading page 1, page 1, loading page 2, page 2.
  func recordTwoPages(_ system: System<PagedSearch.State, PagedSearch.Event>) {
    system.send(.search("swift"))
    clock.advance(by: .seconds(1))
    system.send(.loadNextPage)
    clock.advance(by: .seconds(1))
  }
}
