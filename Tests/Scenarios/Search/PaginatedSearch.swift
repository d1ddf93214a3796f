import FeedbackLoop
import FeedbackLoopTesting
import Foundation
import Synchronization

/// The paginated search (lazy loading): a new search loads its first
/// page; near the bottom of the list the next page loads; a new search
/// while a page loads replaces it; an error keeps the results so far.
package enum Search {
  package struct Context: Equatable, Sendable {
    package var page: Int
    package var results: [String]
    package var nextPageURL: URL?

    package init(page: Int, results: [String], nextPageURL: URL?) {
      self.page = page
      self.results = results
      self.nextPageURL = nextPageURL
    }

    package func merging(_ response: Response) -> Context {
      Context(page: page + 1, results: results + response.results, nextPageURL: response.nextPageURL)
    }

    package static func firstPage(with url: URL) -> Context { Context(page: 0, results: [], nextPageURL: url) }
    package static let initial = Context(page: 0, results: [], nextPageURL: nil)
    package var isInitial: Bool { self == .initial }
  }

  package enum State: Equatable, Sendable {
    case loadingPage(Context)
    case loadedPage(Context)
    case error(SearchError, Context)

    package var context: Context {
      switch self {
      case .loadingPage(let context), .loadedPage(let context), .error(_, let context): context
      }
    }

    /// The page to request: the query of the request feedback.
    package var pageToLoad: URL? {
      guard case .loadingPage(let context) = self else { return nil }
      return context.nextPageURL
    }

    /// The page shown while the list waits for its bottom, when there is a
    /// next page to load: the query of the near-bottom feedback.
    package var pageAwaitingBottom: Int? {
      switch self {
      case .loadedPage(let context), .error(_, let context):
        context.isInitial || context.nextPageURL == nil ? nil : context.page
      case .loadingPage:
        nil
      }
    }
  }

  package enum Event: Equatable, Sendable {
    case newSearch(URL)
    case loadNextPage
    case success(Response)
    case failure(SearchError)
  }

  package struct Response: Equatable, Sendable {
    package var results: [String]
    package var nextPageURL: URL?

    package init(results: [String], nextPageURL: URL?) {
      self.results = results
      self.nextPageURL = nextPageURL
    }
  }

  package enum SearchError: Error, Equatable, Sendable {
    case offline
  }

  package static func reduce(_ state: State, _ event: Event) -> State {
    switch event {
    case .newSearch(let url): .loadingPage(.firstPage(with: url))
    case .loadNextPage: .loadingPage(state.context)
    case .success(let response): .loadedPage(state.context.merging(response))
    case .failure(let error): .error(error, state.context)
    }
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  package static func feedbacks(store: some SearchStore, nearBottom: NearBottom) -> [Feedback<State, Event>] {
    [
      Feedback.query(\.pageToLoad, name: "search request") { url in
        .task {
          .success(try await store.search(url))
        } catch: { error in
          .failure(error as? SearchError ?? .offline)
        }
      },
      Feedback.query(\.pageAwaitingBottom, name: "near the bottom") { _ in
        .run { send in
          for await _ in nearBottom.values() {
            send(.loadNextPage)
            return
          }
        }
      },
    ]
  }
}

/// Where search results come from.
package protocol SearchStore: Sendable {
  func search(_ url: URL) async throws -> Search.Response
}

/// A store whose requests take `latency` on a test clock and answer what
/// the test set; it remembers the requests made.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
package final class FakeSearchStore: SearchStore {
  package let clock: TestClock
  package let latency: Duration
  private let answers: Mutex<[URL: Result<Search.Response, Search.SearchError>]>
  private let made = Mutex<[URL]>([])

  package init(
    clock: TestClock, latency: Duration = .seconds(1), answers: [URL: Result<Search.Response, Search.SearchError>]
  ) {
    self.clock = clock
    self.latency = latency
    self.answers = Mutex(answers)
  }

  package var requests: [URL] { made.withLock { $0 } }

  package func answer(_ url: URL, with result: Result<Search.Response, Search.SearchError>) {
    answers.withLock { $0[url] = result }
  }

  package func search(_ url: URL) async throws -> Search.Response {
    made.withLock { $0.append(url) }
    try await clock.sleep(for: latency)
    return try answers.withLock { $0[url] ?? .failure(.offline) }.get()
  }
}

/// The list view's "near the bottom" signal: every value goes to every
/// reader iterating at the time.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
package final class NearBottom: Sendable {
  package init() {}

  private let readers = Mutex<(next: Int, continuations: [Int: AsyncStream<Void>.Continuation])>((0, [:]))

  package func values() -> AsyncStream<Void> {
    let (stream, continuation) = AsyncStream<Void>.makeStream()
    let id = readers.withLock { readers in
      readers.next += 1
      readers.continuations[readers.next] = continuation
      return readers.next
    }
    continuation.onTermination = { [weak self] _ in
      _ = self?.readers.withLock { $0.continuations.removeValue(forKey: id) }
    }
    return stream
  }

  /// The list reached its bottom.
  package func send() {
    for continuation in readers.withLock({ Array($0.continuations.values) }) { continuation.yield() }
  }
}
