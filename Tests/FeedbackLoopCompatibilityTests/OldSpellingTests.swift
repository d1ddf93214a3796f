import FeedbackLoop
import FeedbackLoopCompatibility
import FeedbackLoopDeclarative
import FeedbackLoopScenarios
import FeedbackLoopTesting
import Testing

/// Each old library's spelling is its new spelling under another name: the
/// same effects started and cancelled for the same events, the same states,
/// the same default name.
@Suite(.runsLeftoverJobs) struct OldSpellingTests {
  struct State: Sendable, Equatable, CustomStringConvertible {
    var query: String?
    var requests: Set<Int> = []
    var log: [String] = []

    var description: String { "\(query ?? "nil") \(requests.sorted()) \(log)" }
  }

  enum Event: Sendable, Equatable {
    case setQuery(String?)
    case setRequests(Set<Int>)
    case result(String)
    case touch
  }

  static func reduce(_ state: State, _ event: Event) -> State {
    var state = state
    switch event {
    case .setQuery(let query): state.query = query
    case .setRequests(let requests): state.requests = requests
    case .result(let result): state.log.append(result)
    case .touch: state.log.append("touch")
    }
    return state
  }

  /// Queries that stay, change, and go; requests that come, stay and go.
  static let events: [Event] = [
    .touch, .setQuery("b"), .setRequests([1, 2]), .setQuery("c"), .setRequests([2, 3]), .setQuery(nil), .touch,
    .setQuery("d"), .setRequests([]),
  ]

  static func run(_ feedback: Feedback<State, Event>) -> Trace {
    trace(feedback, initial: State(query: "a"), reduce: reduce, events: events)
  }

  /// The effect of the query feedbacks: it outlives the one second between
  /// events only when the query stays.
  static let search: @Sendable (String) -> Effect<Event> = { query in
    .after(.milliseconds(1500), send: .result("found \(query)"))
  }

  static let searchUnlessEmpty: @Sendable (State) -> Effect<Event> = { state in
    .after(.milliseconds(1500), send: .result("checked \(state.query ?? "nil")"))
  }

  static let fetch: @Sendable (Int) -> Effect<Event> = { request in
    .after(.seconds(3), send: .result("fetched \(request)"))
  }

  @Test("G4 ReactiveFeedback's Feedback(lensing:) is .query")
  func test_G4_lensingIsQuery() {
    let old = Feedback<State, Event>(lensing: \.query, effects: Self.search)
    let new = Feedback<State, Event>.query(\.query, effects: Self.search)
    #expect(Self.run(old) == Self.run(new))
    #expect(Self.run(new).started.count > 1)
    #expect(old.name.hasPrefix("query@") && new.name.hasPrefix("query@"))
  }

  @Test("G4 ReactiveFeedback's Feedback(skippingRepeated:) is .query")
  func test_G4_skippingRepeatedIsQuery() {
    let old = Feedback<State, Event>(skippingRepeated: \.query, strategy: .queue, effects: Self.search)
    let new = Feedback<State, Event>.query(\.query, strategy: .queue, effects: Self.search)
    #expect(Self.run(old) == Self.run(new))
    #expect(old.name.hasPrefix("query@"))
  }

  @Test("G4 RxFeedback's react(request:) is .query")
  func test_G4_reactRequestIsQuery() {
    let old = Feedback<State, Event>.react(request: \.query, effects: Self.search)
    let new = Feedback<State, Event>.query(\.query, effects: Self.search)
    #expect(Self.run(old) == Self.run(new))
    #expect(old.name.hasPrefix("query@"))
  }

  @Test("G5 ReactiveFeedback's Feedback(predicate:) is .predicate with whenFalse: .keepRunning")
  func test_G5_predicateIsPredicateKeepRunning() {
    let isSet: @Sendable (State) -> Bool = { $0.query != nil }
    let old = Feedback<State, Event>(predicate: isSet, effects: Self.searchUnlessEmpty)
    let keep = Feedback<State, Event>.predicate(isSet, whenFalse: .keepRunning, effects: Self.searchUnlessEmpty)
    let cancel = Feedback<State, Event>.predicate(isSet, whenFalse: .cancelRunning, effects: Self.searchUnlessEmpty)
    #expect(Self.run(old) == Self.run(keep))
    // The events tell the two choices apart, so the equality above says which one the old spelling is.
    #expect(Self.run(old) != Self.run(cancel))
    #expect(old.name.hasPrefix("predicate@"))
  }

  @Test("G4 ReactiveFeedback's Feedback(deriving:) is .deriving")
  func test_G4_derivingIsDeriving() {
    let queries: @Sendable (AsyncStream<State>) -> AsyncCompactMapSequence<AsyncStream<State>, String> = { states in
      states.compactMap(\.query)
    }
    let old = Feedback<State, Event>(deriving: queries, effects: Self.search)
    let new = Feedback<State, Event>.deriving(queries, effects: Self.search)
    #expect(Self.run(old) == Self.run(new))
    #expect(old.name.hasPrefix("deriving@"))
  }

  @Test("G6 RxFeedback's react(requests:) over a Set is .requests")
  func test_G6_reactRequestsIsRequests() {
    let old = Feedback<State, Event>.react(requests: \.requests, effects: Self.fetch)
    let new = Feedback<State, Event>.requests(\.requests, effects: Self.fetch)
    #expect(Self.run(old).sortingEffects == Self.run(new).sortingEffects)
    #expect(Self.run(new).cancelled.contains("1"))
    #expect(old.name.hasPrefix("requests@"))
  }

  @Test("G6 RxFeedback's react(requests:) by id over a Dictionary is .requests")
  func test_G6_reactRequestsByIDIsRequests() {
    let byID: @Sendable (State) -> [Int: String] = { state in
      Dictionary(uniqueKeysWithValues: state.requests.map { ($0, state.query ?? "") })
    }
    let effects: @Sendable (Int, String, AsyncStream<String>) -> Effect<Event> = { id, _, _ in Self.fetch(id) }
    let old = Feedback<State, Event>.react(requests: byID, effects: effects)
    let new = Feedback<State, Event>.requests(byID, effects: effects)
    #expect(Self.run(old).sortingEffects == Self.run(new).sortingEffects)
    #expect(Self.run(new).cancelled == ["1"])
    #expect(old.name.hasPrefix("requests@"))
  }

  @Test("G7 the Feedbacks library's strategy names are .cancelPrevious and .queue")
  func test_G7_feedbacksStrategyNames() {
    #expect(ExecutionStrategy.cancelOnNewState == .cancelPrevious)
    #expect(ExecutionStrategy.continueOnNewState == .queue)
  }
}
