import FeedbackLoop
import FeedbackLoopTesting
import SearchExample
import SearchServer
import Testing

@Suite("Search: the ReactiveFeedback talk's paginated search, on a test clock")
struct SearchTests {
  /// Five movies, two a page: "star" finds three of them, on two pages.
  static let catalog = MovieCatalog(movies: [
    Movie(id: 1, title: "Star of the Sea", year: 1990),
    Movie(id: 2, title: "The Silent Moon", year: 1991),
    Movie(id: 3, title: "Starfall", year: 1992),
    Movie(id: 4, title: "Return to the Star", year: 1993),
    Movie(id: 5, title: "Moon and Sea", year: 1994),
  ])
  static let star1 = catalog.page(of: "star", number: 1, size: 2)
  static let star2 = catalog.page(of: "star", number: 2, size: 2)
  static let moon1 = catalog.page(of: "moon", number: 1, size: 2)

  /// The search system with an API whose answers take 1 s on the test clock.
  static func make() -> (TestSystem<Search.State, Search.Event>, CatalogSearchAPI) {
    let clock = TestClock()
    let api = CatalogSearchAPI(catalog: catalog, clock: clock)
    let search = TestSystem(
      initial: Search.State.initial, reduceReturning: Search.reduce, feedbacks: Search.feedbacks(api: api), clock: clock
    )
    return (search, api)
  }

  static let starPage1 = Search.Context.firstPage(of: "star").merging(star1)

  /// Searches "star" and receives its first page, one second later.
  static func loadFirstPage(_ search: TestSystem<Search.State, Search.Event>) {
    search.send(.newSearch("star")) { $0 = .loadingPage(.firstPage(of: "star")) }
    search.advance(by: .seconds(1))
    search.receive(.success(star1)) { $0 = .loadedPage(starPage1) }
  }

  @Test func aNewSearchLoadsItsFirstPage() throws {
    let (search, api) = Self.make()
    search.send(.newSearch("star")) { $0 = .loadingPage(.firstPage(of: "star")) }
    let request = try #require(search.effectsInFlight.first)
    #expect(request.feedback.name == "page request")
    #expect(request.trigger == "\"star\" page 1")
    search.advance(by: .seconds(1))
    search.receive(.success(Self.star1)) { $0 = .loadedPage(Self.starPage1) }
    #expect(search.state.context.results.map(\.id) == [1, 3])
    #expect(search.state.context.nextPage == 2)
    #expect(api.requests == [PageRequest(query: "star", page: 1)])
    search.finish()
  }

  @Test func reachingTheBottomLoadsTheNextPageAndAppendsIt() {
    let (search, api) = Self.make()
    Self.loadFirstPage(search)
    search.send(.loadNextPage) { $0 = .loadingPage(Self.starPage1) }
    search.advance(by: .seconds(1))
    search.receive(.success(Self.star2)) { $0 = .loadedPage(Self.starPage1.merging(Self.star2)) }
    #expect(search.state.context.results.map(\.id) == [1, 3, 4])
    #expect(search.state.context.nextPage == nil)
    // The last page: the bottom of the list loads nothing more.
    search.send(.loadNextPage)
    #expect(api.requests.count == 2)
    search.finish()
  }

  @Test func theBottomWhileAPageLoadsChangesNothing() {
    let (search, api) = Self.make()
    search.send(.newSearch("star")) { $0 = .loadingPage(.firstPage(of: "star")) }
    search.send(.loadNextPage)
    search.advance(by: .seconds(1))
    search.receive(.success(Self.star1)) { $0 = .loadedPage(Self.starPage1) }
    #expect(api.requests == [PageRequest(query: "star", page: 1)])
    search.finish()
  }

  @Test func aNewSearchCancelsTheRequestInFlightAndItsAnswerNeverArrives() throws {
    let (search, api) = Self.make()
    search.send(.newSearch("star")) { $0 = .loadingPage(.firstPage(of: "star")) }
    search.advance(by: .milliseconds(500))
    search.send(.newSearch("moon")) { $0 = .loadingPage(.firstPage(of: "moon")) }
    let request = try #require(search.effectsInFlight.first)
    #expect(search.effectsInFlight.count == 1)
    #expect(request.trigger == "\"moon\" page 1")
    search.advance(by: .seconds(1))  // past the time "star" would have answered
    search.receive(.success(Self.moon1)) { $0 = .loadedPage(Search.Context.firstPage(of: "moon").merging(Self.moon1)) }
    #expect(api.requests.map(\.query) == ["star", "moon"])
    let cancelled = search.timeline.entries.compactMap { entry -> String? in
      guard case .effectCancelled(let id) = entry.kind else { return nil }
      return id.trigger
    }
    #expect(cancelled == ["\"star\" page 1"])
    search.finish()
  }

  @Test func aFailureShowsAnErrorKeepsTheResultsAndRetryResumes() {
    let (search, api) = Self.make()
    Self.loadFirstPage(search)
    api.setFailing(PageRequest(query: "star", page: 2), true)
    search.send(.loadNextPage) { $0 = .loadingPage(Self.starPage1) }
    search.advance(by: .seconds(1))
    search.receive(.failure(.server(status: 503))) { $0 = .error(.server(status: 503), Self.starPage1) }
    #expect(search.state.context.results.map(\.id) == [1, 3])

    api.setFailing(PageRequest(query: "star", page: 2), false)
    search.send(.retry) { $0 = .loadingPage(Self.starPage1) }
    search.advance(by: .seconds(1))
    search.receive(.success(Self.star2)) { $0 = .loadedPage(Self.starPage1.merging(Self.star2)) }
    #expect(api.requests.map(\.page) == [1, 2, 2])
    search.finish()
  }

  @Test func theTransitions() {
    let transitions = TransitionAssertions(reduceReturning: Search.reduce)
    let page1 = Self.starPage1
    transitions.assertThat(from: .initial, on: .newSearch("star"), newStateIs: .loadingPage(.firstPage(of: "star")))
    transitions.assertThat(from: .loadedPage(page1), on: .loadNextPage, newStateIs: .loadingPage(page1))
    transitions.assertThat(
      from: .loadingPage(page1), on: .failure(.unreachable), newStateIs: .error(.unreachable, page1))
    transitions.assertThat(from: .error(.unreachable, page1), on: .retry, newStateIs: .loadingPage(page1))
    transitions.assertThat(from: .error(.unreachable, page1), on: .loadNextPage, newStateIs: .loadingPage(page1))
    transitions.assertThat(
      from: .error(.unreachable, page1), on: .newSearch("moon"), newStateIs: .loadingPage(.firstPage(of: "moon")))
    transitions.assertThatStateIsUnchanged(from: .initial, on: .loadNextPage)
    transitions.assertThatStateIsUnchanged(from: .loadedPage(page1), on: .retry)
    transitions.assertThatStateIsUnchanged(from: .loadedPage(page1), on: .success(Self.star2))
  }
}
