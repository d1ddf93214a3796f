import FeedbackLoop
import FeedbackLoopDebugging
import FeedbackLoopTesting
import SearchExample
import Synchronization
import Testing

/// Pages of two movies for any query, three pages a query, after a second of
/// the test clock; the outage makes every answer a 503.
final class ScriptedSearchAPI: SearchAPI {
  let clock: TestClock
  private let outage = Mutex(false)

  init(clock: TestClock) { self.clock = clock }

  func setOutage(_ down: Bool) { outage.withLock { $0 = down } }

  func page(_ request: PageRequest) async throws -> Page {
    try await clock.sleep(for: .seconds(1))
    if outage.withLock({ $0 }) { throw SearchFailure.server(status: 503) }
    let movies = (0..<2).map {
      Movie(id: request.page * 10 + $0, title: "\(request.query) \(request.page)-\($0)", year: 2000)
    }
    return Page(
      query: request.query, page: request.page, totalPages: 3, totalResults: 6, results: movies,
      nextPage: request.page < 3 ? request.page + 1 : nil)
  }
}

@Suite struct SearchRecordedSessionTests {
  @Test("G13 the search's scripted session, recorded, replays to identical states")
  func replay() {
    let session = ScriptedSession()
    let recorder = session.recorder(Search.State.self, Search.Event.self)
    let api = ScriptedSearchAPI(clock: session.clock)
    let search = System(
      initial: Search.State.initial, reduceReturning: Search.reduce, feedbacks: Search.feedbacks(api: api),
      environment: session.environment, monitor: recorder.monitor)
    session.act { search.send(.newSearch("star")) }
    session.wait(.seconds(1))
    session.act { search.send(.loadNextPage) }
    session.wait(.seconds(1))
    for prefix in ["m", "mo", "moo", "moon"] {
      session.act { search.send(.newSearch(prefix)) }
      session.wait(.milliseconds(40))
    }
    session.wait(.seconds(1))
    api.setOutage(true)
    session.act { search.send(.loadNextPage) }
    session.wait(.seconds(1))
    api.setOutage(false)
    session.act { search.send(.retry) }
    session.wait(.seconds(1))
    session.act { search.stop() }

    let moments = recorder.moments
    #expect(search.state.context.query == "moon" && search.state.context.pagesLoaded == 2)
    // Each new key cancelled the request in flight: three cancellations while typing.
    #expect(moments.flatMap(\.effects).filter { $0.kind == .cancelled }.count >= 3)
    let report = Replay.check(moments, reduceReturning: Search.reduce)
    #expect(report.isIdentical, "\(report.divergence.map(String.init(describing:)) ?? "")")
    #expect(report.replayed == moments.count - 1)
  }
}
