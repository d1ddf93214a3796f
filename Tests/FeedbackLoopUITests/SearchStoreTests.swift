import FeedbackLoop
import FeedbackLoopTesting
import FeedbackLoopUI
import Testing

/// The paginated search of the store article, run in a store as its views
/// run it, on a test clock: the logic behind the SwiftUI views.
@MainActor
@Suite("The article's paginated search, in a store", .runsLeftoverJobs, .timeLimit(.minutes(1)))
struct SearchStoreTests {
  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  struct Harness {
    let executor = ManualTaskExecutor()
    let clock: TestClock
    let store: Store<Search.State, Search.Event>
    let refresh: Store<Search.ResultRefresh?, Search.Event>

    @MainActor
    init() {
      clock = TestClock(executor: executor)
      store = Store(
        initial: .loadedPage(.initial), reduceReturning: Search.reduce,
        feedbacks: Search.feedbacks(api: .fake(clock: clock)),
        environment: SystemEnvironment(clock: clock, effectExecutor: executor))
      refresh = store.project(filtering: Search.resultRefresh)
    }

    /// Lets the request in flight answer, and reduces its answer.
    @MainActor
    func answer() {
      executor.runUntilIdle()
      clock.advance(by: .seconds(1))
      refresh.processQueuedEvents()  // through the projection, as the list would
    }
  }

  @Test("a search shows loading at once, then the first page; the end of the list loads the next one")
  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  func searchAndPaginate() {
    let search = Harness()
    let list = Tracker { _ = search.refresh.state }
    #expect(search.refresh.state == nil)

    search.store.send(.newSearch("swift"))
    #expect(search.refresh.state == .loading)  // before send returned
    #expect(list.count == 1)

    search.answer()
    let firstPage = ["swift 1.0", "swift 1.1", "swift 1.2"]
    #expect(search.refresh.state == .firstPage(results: firstPage))

    search.refresh.send(.loadNextPage)  // the last row appeared
    #expect(search.refresh.state == .loadingNextPage(results: firstPage))
    search.answer()
    #expect(
      search.refresh.state
        == .nextPage(results: firstPage + ["swift 2.0", "swift 2.1", "swift 2.2"], newResultsRange: 3..<6))
  }

  @Test("G4 a new search cancels the request in flight: its answer never shows")
  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  func test_G4_newSearchCancelsTheRequestInFlight() {
    let search = Harness()
    search.store.send(.newSearch("swift"))
    search.executor.runUntilIdle()  // the request for "swift" waits on the clock
    search.store.send(.newSearch("kotlin"))
    search.answer()
    #expect(search.refresh.state == .firstPage(results: ["kotlin 1.0", "kotlin 1.1", "kotlin 1.2"]))
    #expect(search.clock.sleeperCount == 0)
  }

  @Test("a failure shows the error with the results so far; retrying loads the page again")
  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  func failureAndRetry() {
    let search = Harness()
    search.store.send(.newSearch("fail"))
    search.answer()
    #expect(search.refresh.state == .error(results: [], message: "offline"))
    search.refresh.send(.loadNextPage)
    #expect(search.refresh.state == .loading)
  }
}
