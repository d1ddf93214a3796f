import FeedbackLoop
import FeedbackLoopScenarios
import FeedbackLoopTesting
import Foundation
import Testing

/// The paginated search (FeedbackLoopScenarios' `Search`) on the core's
/// `System`, driven by the harness's test clock and executor.
@Suite(.runsLeftoverJobs) struct PaginatedSearchTests {
  static let swift1 = URL(string: "https://api.example/search?q=swift")!
  static let swift2 = URL(string: "https://api.example/search?q=swift&page=2")!
  static let kotlin1 = URL(string: "https://api.example/search?q=kotlin")!
  static let swiftPage1 = Search.Response(results: ["swift-1-0", "swift-1-1"], nextPageURL: swift2)
  static let swiftPage2 = Search.Response(results: ["swift-2-0", "swift-2-1"], nextPageURL: nil)
  static let kotlinPage1 = Search.Response(results: ["kotlin-1-0", "kotlin-1-1"], nextPageURL: nil)

  let harness = Harness()
  let nearBottom = NearBottom()
  let activity = ActivityLog<Search.State, Search.Event>()
  let store: FakeSearchStore

  init() {
    // Each request takes 300 ms of the test clock.
    store = FakeSearchStore(
      clock: harness.clock, latency: .milliseconds(300),
      answers: [
        Self.swift1: .success(Self.swiftPage1), Self.swift2: .success(Self.swiftPage2),
        Self.kotlin1: .success(Self.kotlinPage1),
      ])
  }

  func makeSystem() -> System<Search.State, Search.Event> {
    System(
      initial: .loadedPage(.initial), reduceReturning: Search.reduce,
      feedbacks: Search.feedbacks(store: store, nearBottom: nearBottom),
      environment: harness.environment, monitor: activity.monitor)
  }

  @Test("paginated search: a new search loads the first page")
  func newSearchLoadsFirstPage() {
    let system = makeSystem()
    system.send(.newSearch(Self.swift1))
    #expect(system.state == .loadingPage(.firstPage(with: Self.swift1)))
    harness.clock.advance(by: .milliseconds(300))
    #expect(system.state.context.results == ["swift-1-0", "swift-1-1"])
    #expect(system.state.context.nextPageURL == Self.swift2)
  }

  @Test("paginated search: reaching the bottom loads the next page, once per page")
  func nearBottomLoadsNextPage() {
    let system = makeSystem()
    system.send(.newSearch(Self.swift1))
    harness.clock.advance(by: .milliseconds(300))
    nearBottom.send()
    harness.settle()
    #expect(system.state == .loadingPage(system.state.context))
    nearBottom.send()  // while loading: nobody listens, nothing happens
    harness.clock.advance(by: .milliseconds(300))
    #expect(system.state.context.results.count == 4)
    #expect(system.state.context.page == 2)
    #expect(activity.reducedEvents.filter { $0 == .loadNextPage }.count == 1)
    #expect(store.requests == [Self.swift1, Self.swift2])
  }

  @Test("paginated search: a new search while a page loads cancels it, and none of its events arrives")
  func newSearchCancelsPageInFlight() {
    let system = makeSystem()
    system.send(.newSearch(Self.swift1))
    harness.clock.advance(by: .milliseconds(100))
    system.send(.newSearch(Self.kotlin1))
    harness.clock.advance(by: .milliseconds(1_000))
    #expect(system.state.context.results == ["kotlin-1-0", "kotlin-1-1"])
    #expect(activity.cancelled.map(\.trigger) == [Self.swift1.description])
    #expect(
      !activity.reducedEvents.contains { event in
        if case .success(let response) = event { return response.results.contains { $0.hasPrefix("swift") } }
        return false
      })
  }

  @Test("paginated search: an error keeps the results, and the next page can be retried")
  func errorKeepsResults() {
    let system = makeSystem()
    system.send(.newSearch(Self.swift1))
    harness.clock.advance(by: .milliseconds(300))
    store.answer(Self.swift2, with: .failure(.offline))
    nearBottom.send()
    harness.clock.advance(by: .milliseconds(300))
    #expect(system.state == .error(.offline, system.state.context))
    #expect(system.state.context.results == ["swift-1-0", "swift-1-1"])
    store.answer(Self.swift2, with: .success(Self.swiftPage2))
    nearBottom.send()  // retry from the error state
    harness.clock.advance(by: .milliseconds(300))
    #expect(system.state.context.results.count == 4)
  }
}
