import FeedbackLoopTesting
import SearchExample
import SearchServer
import Synchronization

/// A search API in memory, over a catalogue, whose answers take `latency` on
/// a test clock; it remembers the requests made, and fails the pages a test
/// names.
final class CatalogSearchAPI: SearchAPI {
  let catalog: MovieCatalog
  let clock: TestClock
  let latency: Duration
  private let state = Mutex<(requests: [PageRequest], failing: Set<PageRequest>)>(([], []))

  init(catalog: MovieCatalog, clock: TestClock, latency: Duration = .seconds(1)) {
    self.catalog = catalog
    self.clock = clock
    self.latency = latency
  }

  /// Every request made, in order.
  var requests: [PageRequest] { state.withLock { $0.requests } }

  /// Makes `request` fail with a 503 (or succeed again).
  func setFailing(_ request: PageRequest, _ failing: Bool) {
    state.withLock { state in
      if failing {
        state.failing.insert(request)
      } else {
        state.failing.remove(request)
      }
    }
  }

  func page(_ request: PageRequest) async throws -> Page {
    state.withLock { $0.requests.append(request) }
    try await clock.sleep(for: latency)
    if state.withLock({ $0.failing.contains(request) }) { throw SearchFailure.server(status: 503) }
    return catalog.page(of: request.query, number: request.page, size: 2)
  }
}
