import FeedbackLoop
import FeedbackLoopTesting
import Foundation

// The code of the Getting Started article (Sources/FeedbackLoop/
// Documentation.docc/GettingStarted.md), block by block, inside a namespace so
// that its names do not clash with other tests. `GettingStartedArticleTests`
// checks that every Swift block of the article appears here (whitespace
// aside), so that the article keeps compiling as shown.
enum GettingStarted {
  // MARK: 1. The state and the events

  struct Response: Sendable, Equatable {
    var results: [String]
    var nextPage: Int?
  }

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
      Context(
        query: query, page: page + 1, results: results + response.results,
        nextPage: response.nextPage)
    }
  }

  enum State: Sendable, Equatable {
    case loadingPage(Context)
    case loadedPage(Context)
    case error(Context)

    var context: Context {
      switch self {
      case .loadingPage(let context), .loadedPage(let context), .error(let context): context
      }
    }

    var failed: Bool {
      if case .error = self { true } else { false }
    }
  }

  enum Event: Sendable, Equatable {
    case newSearch(String)
    case loadNextPage
    case retry
    case success(Response)
    case failure
  }

  // MARK: 2. The reducer

  static func reduce(_ state: inout State, _ event: Event) {
    switch event {
    case .newSearch(let query): state = .loadingPage(.firstPage(of: query))
    case .loadNextPage: state = .loadingPage(state.context)
    case .retry: if state.failed { state = .loadingPage(state.context) }
    case .success(let response): state = .loadedPage(state.context.merging(response))
    case .failure: state = .error(state.context)
    }
  }

  // MARK: 3. A feedback per effect

  struct PageRequest: Sendable, Hashable {
    var query: String
    var page: Int
  }

  struct SearchAPI: Sendable {
    var page: @Sendable (PageRequest) async throws -> Response
  }

  static func request(api: SearchAPI) -> Feedback<State, Event> {
    Feedback.query(\.pageToLoad) { request in
      .task {
        .success(try await api.page(request))
      } catch: { _ in
        .failure
      }
    }
  }

  static func nextPage(nearBottom: AsyncStream<Void>) -> Feedback<State, Event> {
    Feedback.onBecomingNonNil(\.nextPageToLoad) { _ in
      .run { send in
        for await _ in nearBottom {
          send(.loadNextPage)
          return
        }
      }
    }
  }

  // MARK: 4. The system

  static func makeSearch(
    api: SearchAPI,
    userActions: Input<Event>,
    nearBottom: AsyncStream<Void>,
    environment: SystemEnvironment = SystemEnvironment()
  ) -> System<State, Event> {
    System(
      initial: State.loadedPage(.initial),
      reduce: reduce,
      feedbacks: [
        .input(userActions),
        request(api: api),
        nextPage(nearBottom: nearBottom),
      ],
      environment: environment
    )
  }

  static func render(_ state: State) {
    switch state {
    case .loadingPage(let context): print("loading page \(context.nextPage ?? 0) of \(context.query)")
    case .loadedPage(let context): print(context.results.joined(separator: "\n"))
    case .error(let context): print("\(context.results.count) results; the next page failed: retry?")
    }
  }

  static func run(api: SearchAPI, nearBottom: AsyncStream<Void>) async {
    let userActions = Input<Event>()
    let search = makeSearch(api: api, userActions: userActions, nearBottom: nearBottom)
    userActions.send(.newSearch("swift"))
    for await state in search.states {
      render(state)
    }
  }

  // MARK: 5. Test it without waiting

  struct ServerDown: Error {}

  /// Whether the fake server is down; a test switches it.
  final class Outage: @unchecked Sendable {
    // Sendable: `isOn` is only read and written under `lock`.
    private let lock = NSLock()
    private var on = false

    var isOn: Bool {
      get { lock.withLock { on } }
      set { lock.withLock { on = newValue } }
    }
  }
}

extension GettingStarted.State {
  var pageToLoad: GettingStarted.PageRequest? {
    guard case .loadingPage(let context) = self, let page = context.nextPage else { return nil }
    return GettingStarted.PageRequest(query: context.query, page: page)
  }

  var nextPageToLoad: Int? {
    guard case .loadedPage(let context) = self, !context.results.isEmpty else { return nil }
    return context.nextPage
  }
}

extension GettingStarted.SearchAPI {
  /// A fake server: three pages of two results per query, each answered
  /// after 300 ms of `clock`, or failing while `outage` is on.
  static func fake(clock: any Clock<Duration>, outage: GettingStarted.Outage) -> Self {
    Self { request in
      try await clock.sleep(for: .milliseconds(300))
      if outage.isOn { throw GettingStarted.ServerDown() }
      return GettingStarted.Response(
        results: ["\(request.query) \(request.page).1", "\(request.query) \(request.page).2"],
        nextPage: request.page < 3 ? request.page + 1 : nil)
    }
  }
}
