import FeedbackLoop

/// The paginated search of the talk and of the store article: a state
/// machine whose query feedback loads the page the state asks for, and the
/// talk's view-state prism, `resultRefresh`, which lets only the states that
/// change the list through.
enum Search {
  struct Context: Equatable, Sendable {
    var query = ""
    var page = 0
    var results: [String] = []
    var nextPage: Int?
    var lastPageRange: Range<Int> = 0..<0

    static let initial = Context()

    static func firstPage(of query: String) -> Context {
      Context(query: query, nextPage: 1)
    }

    func merging(_ response: Page) -> Context {
      Context(
        query: query, page: page + 1, results: results + response.results, nextPage: response.nextPage,
        lastPageRange: results.count..<(results.count + response.results.count))
    }

    var isInitial: Bool { query.isEmpty && page == 0 && results.isEmpty }
  }

  struct Page: Equatable, Sendable {
    var results: [String]
    var nextPage: Int?
  }

  struct PageRequest: Equatable, Sendable {
    var query: String
    var page: Int
  }

  struct Failure: Error, Equatable, Sendable {
    var message: String
  }

  enum State: Equatable, Sendable {
    case loadingPage(Context)
    case loadedPage(Context)
    case error(Failure, Context)

    var context: Context {
      switch self {
      case .loadingPage(let context), .loadedPage(let context), .error(_, let context): context
      }
    }

    /// The page to load, while one is loading: the query of the feedback.
    var pageToLoad: PageRequest? {
      guard case .loadingPage(let context) = self, let page = context.nextPage else { return nil }
      return PageRequest(query: context.query, page: page)
    }

    var isLoading: Bool {
      if case .loadingPage = self { return true }
      return false
    }
  }

  enum Event: Equatable, Sendable {
    case newSearch(String)
    case loadNextPage
    case success(Page)
    case failure(Failure)
  }

  static func reduce(_ state: State, _ event: Event) -> State {
    switch (state, event) {
    case (_, .newSearch(let query)):
      .loadingPage(.firstPage(of: query))
    case (.loadedPage(let context), .loadNextPage) where context.nextPage != nil,
      (.error(_, let context), .loadNextPage):
      .loadingPage(context)
    case (.loadingPage(let context), .success(let page)):
      .loadedPage(context.merging(page))
    case (.loadingPage(let context), .failure(let failure)):
      .error(failure, context)
    default:
      state
    }
  }

  /// What the list shows: the talk's `ResultRefresh`.
  enum ResultRefresh: Equatable, Sendable {
    case loading
    case empty
    case firstPage(results: [String])
    case nextPage(results: [String], newResultsRange: Range<Int>)
    case loadingNextPage(results: [String])
    case error(results: [String], message: String)
  }

  /// The talk's prism: `nil` for the states that must not update the list
  /// (nothing searched yet).
  static func resultRefresh(_ state: State) -> ResultRefresh? {
    switch state {
    case .loadingPage(let context) where context.page > 0:
      .loadingNextPage(results: context.results)
    case .loadingPage:
      .loading
    case .loadedPage(let context) where context.isInitial:
      nil
    case .loadedPage(let context) where context.results.isEmpty:
      .empty
    case .loadedPage(let context) where context.page == 1:
      .firstPage(results: context.results)
    case .loadedPage(let context):
      .nextPage(results: context.results, newResultsRange: context.lastPageRange)
    case .error(let failure, let context):
      .error(results: context.results, message: failure.message)
    }
  }

  /// The search service.
  struct API: Sendable {
    var page: @Sendable (PageRequest) async throws -> Page
  }

  static func feedbacks(api: API) -> [Feedback<State, Event>] {
    [
      Feedback.query(\.pageToLoad) { request in
        .task {
          .success(try await api.page(request))
        } catch: { error in
          .failure(error as? Failure ?? Failure(message: "\(error)"))
        }
      }
    ]
  }
}

extension Search.API {
  /// A service that answers after `latency` on `clock`: three results per
  /// page, three pages per query; the query "fail" fails.
  static func fake(clock: any Clock<Duration>, latency: Duration = .seconds(1)) -> Self {
    Self { request in
      try await clock.sleep(for: latency)
      if request.query == "fail" { throw Search.Failure(message: "offline") }
      return Search.Page(
        results: (0..<3).map { "\(request.query) \(request.page).\($0)" },
        nextPage: request.page < 3 ? request.page + 1 : nil)
    }
  }
}
