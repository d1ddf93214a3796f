import FeedbackLoop
import FeedbackLoopTesting
import SearchExample
import SearchServer
import Testing

/// The search system whole, against the real server: the pages come over
/// HTTP from a server the test starts on 127.0.0.1. The system runs on the
/// test's manual executor; each request goes through a relay that the test
/// answers with the real API's answer, so that every step is deterministic.
@Suite("Search: the whole loop against the real HTTP API")
struct SearchOverHTTPTests {
  static let catalog = MovieCatalog.standard

  static func expected(_ query: String, _ number: Int) -> Page {
    catalog.page(of: query, number: number, size: 20)
  }

  @Test func pagesNewSearchesFailuresAndRetry() async throws {
    let server = SearchServer()
    let port = try await server.start()
    let http = HTTPSearchAPI(baseURL: "http://127.0.0.1:\(port)")
    let relay = RelayedSearchAPI()
    let search = TestSystem(
      initial: Search.State.initial, reduceReturning: Search.reduce, feedbacks: Search.feedbacks(api: relay))

    // A search loads its first page.
    search.send(.newSearch("star")) { $0 = .loadingPage(.firstPage(of: "star")) }
    #expect(relay.waiting == [PageRequest(query: "star", page: 1)])
    await relay.forwardOldest(to: http)
    let star1 = Search.Context.firstPage(of: "star").merging(Self.expected("star", 1))
    search.receive(.success(Self.expected("star", 1))) { $0 = .loadedPage(star1) }

    // The bottom of the list loads the next page.
    search.send(.loadNextPage) { $0 = .loadingPage(star1) }
    #expect(relay.waiting == [PageRequest(query: "star", page: 2)])
    await relay.forwardOldest(to: http)
    let star2 = star1.merging(Self.expected("star", 2))
    search.receive(.success(Self.expected("star", 2))) { $0 = .loadedPage(star2) }
    #expect(search.state.context.results.count == 40)

    // A new search cancels the request in flight.
    search.send(.newSearch("moo")) { $0 = .loadingPage(.firstPage(of: "moo")) }
    search.send(.newSearch("moon")) { $0 = .loadingPage(.firstPage(of: "moon")) }
    #expect(relay.waiting == [PageRequest(query: "moon", page: 1)])
    await relay.forwardOldest(to: http)
    let moon1 = Search.Context.firstPage(of: "moon").merging(Self.expected("moon", 1))
    search.receive(.success(Self.expected("moon", 1))) { $0 = .loadedPage(moon1) }

    // A failure shows an error and keeps the results.
    server.setOutage(true)
    search.send(.loadNextPage) { $0 = .loadingPage(moon1) }
    await relay.forwardOldest(to: http)
    search.receive(.failure(.server(status: 503))) { $0 = .error(.server(status: 503), moon1) }
    #expect(search.state.context.results.count == 20)

    // Retry resumes where it failed.
    server.setOutage(false)
    search.send(.retry) { $0 = .loadingPage(moon1) }
    #expect(relay.waiting == [PageRequest(query: "moon", page: 2)])
    await relay.forwardOldest(to: http)
    search.receive(.success(Self.expected("moon", 2))) { $0 = .loadedPage(moon1.merging(Self.expected("moon", 2))) }

    let cancelled = search.timeline.entries.compactMap { entry -> String? in
      guard case .effectCancelled(let id) = entry.kind else { return nil }
      return id.trigger
    }
    #expect(cancelled == ["\"moo\" page 1"])
    search.finish()
    await server.stop()
  }
}
