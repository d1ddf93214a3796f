import FeedbackLoopTesting
import SearchExample
import SearchServer
import Synchronization
import Testing

/// The search API over HTTP: a Hummingbird server the test starts on
/// 127.0.0.1 (on a port the system picks), and the AsyncHTTPClient client.
@Suite("The search API over HTTP")
struct SearchServerTests {
  /// Runs `body` with a server started on a free port, and stops it after.
  static func withServer(
    _ server: SearchServer = SearchServer(),
    _ body: (SearchServer, HTTPSearchAPI) async throws -> Void
  ) async throws {
    let port = try await server.start()
    do {
      try await body(server, HTTPSearchAPI(baseURL: "http://127.0.0.1:\(port)"))
    } catch {
      await server.stop()
      throw error
    }
    await server.stop()
  }

  @Test func thePagesOfASearchFollowEachOtherToTheLast() async throws {
    try await Self.withServer { server, api in
      var request: PageRequest? = PageRequest(query: "star", page: 1)
      var movies: [Movie] = []
      while let next = request {
        let page = try await api.page(next)
        #expect(page.query == "star" && page.page == next.page)
        movies += page.results
        request = page.nextPage.map { PageRequest(query: "star", page: $0) }
      }
      #expect(movies == server.catalog.search("star"))
    }
  }

  @Test func aSearchOfSeveralWordsTravelsIntact() async throws {
    try await Self.withServer { server, api in
      let page = try await api.page(PageRequest(query: "star & sea", page: 1))
      #expect(page.query == "star & sea")
      #expect(page.results == Array(server.catalog.search("star & sea").prefix(20)))
    }
  }

  @Test func duringAnOutageTheServerAnswers503() async throws {
    try await Self.withServer { server, api in
      server.setOutage(true)
      await #expect(throws: SearchFailure.server(status: 503)) {
        try await api.page(PageRequest(query: "star", page: 1))
      }
      server.setOutage(false)
      let page = try await api.page(PageRequest(query: "star", page: 1))
      #expect(page.results.count == 20)
    }
  }

  @Test func anInvalidPageIsABadRequest() async throws {
    try await Self.withServer { _, api in
      await #expect(throws: SearchFailure.server(status: 400)) {
        try await api.page(PageRequest(query: "star", page: 0))
      }
    }
  }

  @Test func aPortInUseIsReportedNotACrash() async throws {
    try await Self.withServer { server, _ in
      let port = try #require(server.port)
      let second = SearchServer()
      await #expect(throws: SearchServerError.portInUse(port)) {
        _ = try await second.start(port: port)
      }
      #expect(second.port == nil)
    }
  }

  @Test func cancellingTheCallingTaskCancelsTheRequestInFlight() async throws {
    // The server's answers wait on a test clock that never moves: the
    // request is in flight until the test cancels it.
    let (arrivals, arrived) = AsyncStream<Void>.makeStream()
    let clock = SignallingClock(base: TestClock()) { arrived.yield() }
    let server = SearchServer(latency: .seconds(1), clock: clock)
    try await Self.withServer(server) { _, api in
      let request = Task { try await api.page(PageRequest(query: "star", page: 1)) }
      for await _ in arrivals { break }  // the server holds the request
      request.cancel()
      let outcome = await request.result
      #expect(throws: CancellationError.self) { try outcome.get() }
    }
  }
}
