import FeedbackLoop
import FeedbackLoopTesting
import Testing

/// Seed 000: paginated search with a state machine and feedback loops.
enum Search {
  struct Context: Sendable, Equatable {
    var query = ""
    var page = 0
    var results: [String] = []
    var nextPage: Int?

    static let initial = Context()

    static func firstPage(of query: String) -> Context {
      Context(query: query, page: 0, results: [], nextPage: 1)
    }

    func merging(_ response: Response) -> Context {
      Context(query: query, page: page + 1, results: results + response.results, nextPage: response.nextPage)
    }

    var isInitial: Bool { page == 0 && results.isEmpty && nextPage == nil }
  }

  struct Response: Sendable, Equatable {
    var results: [String]
    var nextPage: Int?
  }

  struct Failure: Error, Equatable {}

  enum State: Sendable, Equatable {
    case loadingPage(Context)
    case loadedPage(Context)
    case error(Context)

    var context: Context {
      switch self {
      case .loadingPage(let context), .loadedPage(let context), .error(let context): context
      }
    }

    /// What to load: the query and page, while a page is loading.
    var pageToLoad: PageRequest? {
      guard case .loadingPage(let context) = self, let page = context.nextPage else { return nil }
      return PageRequest(query: context.query, page: page)
    }

    /// Non-nil while the list shows a page that has a next one.
    var loadNextPage: Int? {
      switch self {
      case .loadedPage(let context), .error(let context):
        context.isInitial ? nil : context.nextPage
      case .loadingPage:
        nil
      }
    }
  }

  struct PageRequest: Sendable, Equatable, Hashable {
    var query: String
    var page: Int
  }

  enum Event: Sendable, Equatable {
    case newSearch(String)
    case loadNextPage
    case success(Response)
    case failure
  }

  static func reduce(_ state: State, _ event: Event) -> State {
    switch event {
    case .newSearch(let query): .loadingPage(.firstPage(of: query))
    case .loadNextPage: .loadingPage(state.context)
    case .success(let response): .loadedPage(state.context.merging(response))
    case .failure: .error(state.context)
    }
  }

  /// The server: three pages per query, each taking 300 ms of the injected clock.
  struct API: Sendable {
    let clock: any Clock<Duration>
    let failing: Ref<Bool>

    func page(_ request: PageRequest) async throws -> Response {
      try await clock.sleep(for: .milliseconds(300))
      if failing.value == true { throw Failure() }
      let results = (0..<2).map { "\(request.query)-\(request.page)-\($0)" }
      return Response(results: results, nextPage: request.page < 3 ? request.page + 1 : nil)
    }
  }

  static func feedbacks(
    queries: Input<Event>, nearBottom: AsyncStream<Void>, api: API
  ) -> [Feedback<State, Event>] {
    [
      .input(queries),
      Feedback(lensing: \.pageToLoad, name: "request") { request in
        .task {
          .success(try await api.page(request))
        } catch: { _ in
          .failure
        }
      },
      Feedback(onBecomingNonNil: \.loadNextPage, name: "nearBottom") { _ in
        .run { send in
          for await _ in nearBottom {
            send(.loadNextPage)
            return
          }
        }
      },
    ]
  }
}

@Suite(.runsLeftoverJobs) struct PaginatedSearchTests {
  let harness = Harness()
  let queries = Input<Search.Event>()
  // A signal, as in the seed: a yield with nobody listening is lost.
  let nearBottom = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(0))
  let failing = Ref<Bool>()
  let activity = ActivityLog<Search.State, Search.Event>()

  func makeSystem() -> System<Search.State, Search.Event> {
    System(
      initial: .loadedPage(.initial), reduce: Search.reduce,
      feedbacks: Search.feedbacks(
        queries: queries, nearBottom: nearBottom.stream, api: Search.API(clock: harness.clock, failing: failing)),
      environment: harness.environment, monitor: activity.monitor)
  }

  @Test("seed 000: a new search loads the first page")
  func newSearchLoadsFirstPage() {
    let system = makeSystem()
    queries.send(.newSearch("swift"))
    #expect(system.state == .loadingPage(.firstPage(of: "swift")))
    harness.clock.advance(by: .milliseconds(300))
    #expect(system.state.context.results == ["swift-1-0", "swift-1-1"])
    #expect(system.state.context.nextPage == 2)
  }

  @Test("seed 000: reaching the bottom loads the next page, once per page")
  func nearBottomLoadsNextPage() {
    let system = makeSystem()
    queries.send(.newSearch("swift"))
    harness.clock.advance(by: .milliseconds(300))
    nearBottom.continuation.yield()
    harness.settle()
    #expect(system.state == .loadingPage(system.state.context))
    nearBottom.continuation.yield()  // while loading: nobody listens, nothing happens
    harness.clock.advance(by: .milliseconds(300))
    #expect(system.state.context.results.count == 4)
    #expect(system.state.context.page == 2)
    #expect(activity.reducedEvents.filter { $0 == .loadNextPage }.count == 1)
  }

  @Test("seed 000: a new search while a page loads cancels it, and none of its events arrives")
  func newSearchCancelsPageInFlight() {
    let system = makeSystem()
    queries.send(.newSearch("swift"))
    harness.clock.advance(by: .milliseconds(100))
    queries.send(.newSearch("kotlin"))
    harness.clock.advance(by: .milliseconds(1_000))
    #expect(system.state.context.results == ["kotlin-1-0", "kotlin-1-1"])
    #expect(activity.cancelled.map(\.trigger) == [#"PageRequest(query: "swift", page: 1)"#])
    #expect(
      !activity.reducedEvents.contains { event in
        if case .success(let response) = event { return response.results.contains { $0.hasPrefix("swift") } }
        return false
      })
  }

  @Test("seed 000: an error keeps the results, and the next page can be retried")
  func errorKeepsResults() {
    let system = makeSystem()
    queries.send(.newSearch("swift"))
    harness.clock.advance(by: .milliseconds(300))
    failing.value = true
    nearBottom.continuation.yield()
    harness.clock.advance(by: .milliseconds(300))
    #expect(system.state == .error(system.state.context))
    #expect(system.state.context.results == ["swift-1-0", "swift-1-1"])
    failing.value = false
    nearBottom.continuation.yield()  // retry from the error state
    harness.clock.advance(by: .milliseconds(300))
    #expect(system.state.context.results.count == 4)
  }
}
