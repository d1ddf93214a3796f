import Hummingbird
import SearchExample

extension SearchServer {
  /// The server's route, `GET /search?q=…&page=…`, and `GET /metrics` when
  /// it has a registry.
  func router() -> Router<BasicRequestContext> {
    let router = Router(context: BasicRequestContext.self)
    router.get("search") { request, _ -> PageResponse in
      let query = String(request.uri.queryParameters["q"] ?? "")
      guard let number = Int(request.uri.queryParameters["page"] ?? "1"), number >= 1 else {
        self.report(ServedRequest(query: query, page: nil, status: 400, resultCount: 0))
        throw HTTPError(.badRequest, message: "page must be a whole number from 1 on")
      }
      if self.latency > .zero {
        try await self.clock.sleep(for: self.latency)
      }
      guard !self.outage else {
        self.report(ServedRequest(query: query, page: number, status: 503, resultCount: 0))
        throw HTTPError(.serviceUnavailable, message: "the search is down for maintenance")
      }
      let page = self.catalog.page(of: query, number: number, size: self.pageSize)
      self.report(ServedRequest(query: query, page: number, status: 200, resultCount: page.results.count))
      return PageResponse(page: page)
    }
    if let metrics {
      router.get("metrics") { _, _ in MetricsResponse(registry: metrics) }
    }
    return router
  }
}
