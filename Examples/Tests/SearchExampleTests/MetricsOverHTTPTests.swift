import AsyncHTTPClient
import FeedbackLoop
import FeedbackLoopTelemetry
import FeedbackLoopTesting
import Prometheus
import SearchExample
import SearchServer
import Testing

/// The search server's `GET /metrics`: the figures the search system counts
/// with `.metrics(label: "search")`, as Prometheus reads them. The test
/// hands the system a factory of its own registry: swift-metrics' global
/// bootstrap is once per process, and belongs to the app.
@Suite("Search: the loop's figures at /metrics")
struct MetricsOverHTTPTests {
  /// The body of `GET url`, with its status and content type.
  static func get(_ url: String) async throws -> (status: UInt, contentType: String?, body: String) {
    let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(10))
    let body = try await response.body.collect(upTo: 1 << 20)
    return (response.status.code, response.headers.first(name: "content-type"), String(buffer: body))
  }

  @Test func afterASearchTheMetricsPageCountsTheSearchSystem() async throws {
    let registry = PrometheusCollectorRegistry()
    let server = SearchServer(metrics: registry)
    let port = try await server.start()
    let baseURL = "http://127.0.0.1:\(port)"
    let relay = RelayedSearchAPI()
    let clock = TestClock()
    let search = TestSystem(clock: clock) { environment, monitor in
      System(
        initial: Search.State.initial, reduceReturning: Search.reduce, feedbacks: Search.feedbacks(api: relay),
        environment: environment,
        monitor: .combining([
          monitor, .metrics(label: "search", factory: PrometheusMetricsFactory(registry: registry), clock: clock),
        ]))
    }

    search.send(.newSearch("star")) { $0 = .loadingPage(.firstPage(of: "star")) }
    await relay.forwardOldest(to: HTTPSearchAPI(baseURL: baseURL))
    let page = MovieCatalog.standard.page(of: "star", number: 1, size: 20)
    search.receive(.success(page)) { $0 = .loadedPage(Search.Context.firstPage(of: "star").merging(page)) }

    let metrics = try await Self.get(baseURL + "/metrics")
    #expect(metrics.status == 200)
    #expect(metrics.contentType?.hasPrefix("text/plain; version=0.0.4") == true)
    let lines = metrics.body.split(separator: "\n").map(String.init)
    #expect(lines.contains("# TYPE feedbackloop_events_reduced counter"))
    #expect(lines.contains(#"feedbackloop_events_reduced{system="search"} 2"#))
    #expect(lines.contains(#"feedbackloop_effects_started{system="search",feedback="page request"} 1"#))
    #expect(lines.contains(#"feedbackloop_effects_finished{system="search",feedback="page request"} 1"#))

    // The figures move with the loop: the next search counts on the next read.
    search.send(.newSearch("moon")) { $0 = .loadingPage(.firstPage(of: "moon")) }
    await relay.forwardOldest(to: HTTPSearchAPI(baseURL: baseURL))
    let moon = MovieCatalog.standard.page(of: "moon", number: 1, size: 20)
    search.receive(.success(moon)) { $0 = .loadedPage(Search.Context.firstPage(of: "moon").merging(moon)) }
    let again = try await Self.get(baseURL + "/metrics").body.split(separator: "\n").map(String.init)
    #expect(again.contains(#"feedbackloop_events_reduced{system="search"} 4"#))
    #expect(again.contains(#"feedbackloop_effects_started{system="search",feedback="page request"} 2"#))

    search.finish()
    await server.stop()
  }

  @Test func aServerWithoutARegistryServesNoMetrics() async throws {
    let server = SearchServer()
    let port = try await server.start()
    let metrics = try await Self.get("http://127.0.0.1:\(port)/metrics")
    #expect(metrics.status == 404)
    await server.stop()
  }
}
