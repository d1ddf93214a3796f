import FeedbackLoop
import FeedbackLoopDebugging
import FeedbackLoopScenarios
import FeedbackLoopTesting

/// The paginated search, small: each page takes one second of the test
/// clock to load. Its event can carry a jump (time travel).
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
      break  // handled by TimeTravel.reducer
    }
  }

  static func results(_ request: PageRequest) -> [String] {
    (0..<2).map { "\(request.query)-\(request.page)-\($0)" }
  }

  static var feedbacks: [Feedback<State, Event>] {
    [
      Feedback.query(
        { state in state.loadingPage.map { PageRequest(query: state.query, page: $0) } }, name: "request"
      ) { request in
        .after(.seconds(1), send: .loaded(page: request.page, results: results(request)))
      }
    ]
  }
}

extension Harness {
  /// A paged search whose every activity goes to `monitor`, through the time-travel reducer.
  func search(monitor: SystemMonitor<PagedSearch.State, PagedSearch.Event>) -> System<
    PagedSearch.State, PagedSearch.Event
  > {
    System(
      initial: PagedSearch.State(), reduce: TimeTravel.reducer(PagedSearch.reduce),
      feedbacks: PagedSearch.feedbacks, environment: environment, monitor: monitor)
  }

  /// Searches "swift" and loads pages 1 and 2: moments 0 to 4.
  func recordTwoPages(_ system: System<PagedSearch.State, PagedSearch.Event>) {
    system.send(.search("swift"))  // 1: loading page 1
    clock.advance(by: .seconds(1))  // 2: page 1 loaded
    system.send(.loadNextPage)  // 3: loading page 2
    clock.advance(by: .seconds(1))  // 4: page 2 loaded
  }
}
