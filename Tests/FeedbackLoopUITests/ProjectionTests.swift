import FeedbackLoop
import FeedbackLoopTesting
import FeedbackLoopUI
import Testing

@MainActor
@Suite("View-state projections: a pure function of the state, updated only when it changes", .runsLeftoverJobs)
struct ProjectionTests {
  struct Header: Equatable, Sendable {
    var title: String
    var isEven: Bool
  }

  static func header(_ state: Counter.State) -> Header {
    Header(title: "Step \(state.step)", isEven: state.count.isMultiple(of: 2))
  }

  @Test("the projection follows the state synchronously")
  func projectionFollowsSynchronously() {
    let store = Store(initial: Counter.State(), reduce: Counter.reduce)
    let header = store.project(Self.header)
    #expect(header.state == Header(title: "Step 1", isEven: true))
    store.send(.increment)
    #expect(header.state == Header(title: "Step 1", isEven: false))
    #expect(header.isEven == false)
  }

  @Test("a projection notifies its readers only when it changes")
  func projectionDeduplicates() {
    let store = Store(initial: Counter.State(), reduce: Counter.reduce)
    let header = store.project(Self.header)
    let tracker = Tracker { _ = header.state }
    store.send(.stepChanged(2))  // the title changes
    #expect(tracker.count == 1)
    tracker.rearm()
    store.send(.increment)  // 0 -> 2: still even, same title
    store.send(.increment)  // 2 -> 4
    #expect(tracker.count == 1)
    store.send(.stepChanged(1))
    store.send(.increment)  // 4 -> 5: odd
    #expect(tracker.count == 2)
  }

  @Test("a projection's states sequence yields distinct view states")
  func projectionStatesAreDistinct() async {
    let store = Store(initial: Counter.State(), reduce: Counter.reduce)
    let parity = store.project { $0.count.isMultiple(of: 2) }
    let states = parity.states
    for _ in 0..<4 { store.send(.increment) }
    store.send(.stepChanged(2))
    store.send(.increment)  // 4 -> 6: even, no change
    store.stop()
    var seen: [Bool] = []
    for await isEven in states { seen.append(isEven) }
    #expect(seen == [true, false, true, false, true])
  }

  @Test("a projection sends the store's events")
  func projectionSends() {
    let store = Store(initial: Counter.State(), reduce: Counter.reduce)
    let header = store.project(Self.header)
    header.send(.increment)
    #expect(store.count == 1)
    #expect(header.isEven == false)
  }

  @Test("a prism lets only some states through; the view keeps the last one that passed")
  func prismFilters() {
    let store = Store(initial: Counter.State(), reduce: Counter.reduce)
    // Only odd counts reach the view.
    let odd = store.project(filtering: { $0.count.isMultiple(of: 2) ? nil : $0.count }, initial: -1)
    let tracker = Tracker { _ = odd.state }
    #expect(odd.state == -1)
    store.send(.increment)
    #expect(odd.state == 1)
    #expect(tracker.count == 1)
    tracker.rearm()
    store.send(.increment)  // 2: filtered out
    #expect(odd.state == 1)
    #expect(tracker.count == 1)
    store.send(.increment)
    #expect(odd.state == 3)
    #expect(tracker.count == 2)
  }

  @Test("the optional prism is nil until a state passes, and never nil again")
  func optionalPrism() {
    let store = Store(initial: Counter.State(), reduce: Counter.reduce)
    let odd = store.project(filtering: { $0.count.isMultiple(of: 2) ? nil : $0.count })
    #expect(odd.state == nil)
    store.send(.increment)
    #expect(odd.state == 1)
    store.send(.increment)
    #expect(odd.state == 1)
  }

  @Test("the result-refresh prism of the paginated search skips the states that need no update")
  func resultRefreshPrism() {
    let store = Store(initial: Search.State.loadedPage(.initial), reduceReturning: Search.reduce)
    let refresh = store.project(filtering: Search.resultRefresh)
    #expect(refresh.state == nil)  // nothing searched yet: no update
    store.send(.newSearch("swift"))
    #expect(refresh.state == .loading)
    store.send(.success(Search.Page(results: ["a", "b"], nextPage: 2)))
    #expect(refresh.state == .firstPage(results: ["a", "b"]))
    store.send(.loadNextPage)
    #expect(refresh.state == .loadingNextPage(results: ["a", "b"]))
    store.send(.success(Search.Page(results: ["c"], nextPage: nil)))
    #expect(refresh.state == .nextPage(results: ["a", "b", "c"], newResultsRange: 2..<3))
  }
}
