import FeedbackLoop
import FeedbackLoopScenarios
import FeedbackLoopTesting
import Foundation
import Testing

@Suite("Paginated search", .runsLeftoverJobs)
struct PaginatedSearchTests {
  static let swift1 = URL(string: "https://api.example/search?q=swift")!
  static let swift2 = URL(string: "https://api.example/search?q=swift&page=2")!
  static let rust1 = URL(string: "https://api.example/search?q=rust")!
  static let swiftPage1 = Search.Response(results: ["Swift", "SwiftUI"], nextPageURL: swift2)
  static let swiftPage2 = Search.Response(results: ["Swift Testing"], nextPageURL: nil)
  static let rustPage1 = Search.Response(results: ["Rust"], nextPageURL: nil)

  /// The search system, with a store whose requests take 1 s on the test
  /// clock, and the list's near-bottom signal.
  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  static func make() -> (TestSystem<Search.State, Search.Event>, FakeSearchStore, NearBottom) {
    let clock = TestClock()
    let nearBottom = NearBottom()
    let store = FakeSearchStore(
      clock: clock,
      answers: [
        swift1: .success(swiftPage1), swift2: .success(swiftPage2), rust1: .success(rustPage1),
      ])
    let search = TestSystem(
      initial: .loadedPage(.initial), reduceReturning: Search.reduce,
      feedbacks: Search.feedbacks(store: store, nearBottom: nearBottom), clock: clock)
    return (search, store, nearBottom)
  }

  /// The first page of "swift", loaded.
  static let page1 = Search.Context(page: 1, results: ["Swift", "SwiftUI"], nextPageURL: swift2)

  /// Searches "swift" and receives its first page, one second later.
  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  static func loadFirstPage(_ search: TestSystem<Search.State, Search.Event>) {
    search.send(.newSearch(Self.swift1)) { $0 = .loadingPage(.firstPage(with: Self.swift1)) }
    search.advance(by: .seconds(1))
    search.receive(.success(Self.swiftPage1)) { $0 = .loadedPage(Self.page1) }
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func aNewSearchLoadsTheFirstPage() throws {
    let (search, store, _) = Self.make()
    search.send(.newSearch(Self.swift1)) { $0 = .loadingPage(.firstPage(with: Self.swift1)) }
    let request = try #require(search.effectsInFlight.first)
    #expect(request.feedback.name == "search request")
    #expect(request.trigger == Self.swift1.description)
    search.advance(by: .seconds(1))
    search.receive(.success(Self.swiftPage1)) { $0 = .loadedPage(Self.page1) }
    #expect(store.requests == [Self.swift1])
    // The list now waits for its bottom, for as long as it shows.
    #expect(search.effectsInFlight.map(\.feedback.name) == ["near the bottom"])
    search.skipInFlightEffects()
    search.finish()
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func nearTheBottomTheNextPageLoadsAndItsResultsAreAppended() {
    let (search, store, nearBottom) = Self.make()
    Self.loadFirstPage(search)
    nearBottom.send()
    search.receive(.loadNextPage) { $0 = .loadingPage(Self.page1) }
    search.advance(by: .seconds(1))
    search.receive(.success(Self.swiftPage2)) {
      $0 = .loadedPage(Search.Context(page: 2, results: ["Swift", "SwiftUI", "Swift Testing"], nextPageURL: nil))
    }
    #expect(store.requests == [Self.swift1, Self.swift2])
    // The last page: nothing waits for the bottom any more.
    search.finish()
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func aNewSearchWhileAPageLoadsCancelsItAndNoneOfItsEventsArrive() throws {
    let (search, store, nearBottom) = Self.make()
    Self.loadFirstPage(search)
    nearBottom.send()
    search.receive(.loadNextPage) { $0 = .loadingPage(Self.page1) }
    search.advance(by: .milliseconds(500))  // page 2 would answer at 2 s
    search.send(.newSearch(Self.rust1)) { $0 = .loadingPage(.firstPage(with: Self.rust1)) }
    let request = try #require(search.effectsInFlight.first)
    #expect(search.effectsInFlight.count == 1)
    #expect(request.trigger == Self.rust1.description)
    #expect(request.startedAt == TestClock.Instant(offset: .milliseconds(1_500)))

    search.advance(by: .seconds(1))  // past 2 s: page 2's answer never comes
    search.receive(.success(Self.rustPage1)) {
      $0 = .loadedPage(Search.Context(page: 1, results: ["Rust"], nextPageURL: nil))
    }
    #expect(store.requests == [Self.swift1, Self.swift2, Self.rust1])
    let cancelled = search.timeline.entries.compactMap { entry -> String? in
      guard case .effectCancelled(let id) = entry.kind else { return nil }
      return id.trigger
    }
    #expect(cancelled.contains(Self.swift2.description))
    search.finish()
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func anErrorKeepsTheResultsAndTheNextBottomTriesAgain() {
    let (search, store, nearBottom) = Self.make()
    store.answer(Self.swift2, with: .failure(.offline))
    Self.loadFirstPage(search)
    nearBottom.send()
    search.receive(.loadNextPage) { $0 = .loadingPage(Self.page1) }
    search.advance(by: .seconds(1))
    search.receive(.failure(.offline)) { $0 = .error(.offline, Self.page1) }
    #expect(search.state.context.results == ["Swift", "SwiftUI"])

    store.answer(Self.swift2, with: .success(Self.swiftPage2))
    nearBottom.send()
    search.receive(.loadNextPage) { $0 = .loadingPage(Self.page1) }
    search.advance(by: .seconds(1))
    search.receive(.success(Self.swiftPage2)) {
      $0 = .loadedPage(Search.Context(page: 2, results: ["Swift", "SwiftUI", "Swift Testing"], nextPageURL: nil))
    }
    search.finish()
  }
}
