import FeedbackLoop
import FeedbackLoopScenarios
import FeedbackLoopTesting
import Testing

/// G4: the query feedback's three spellings (`lensing`, the primary one;
/// `skippingRepeated` and `react(request:)`, kept for users of the old
/// libraries) are one feedback: the same lifecycle, differing only in the
/// default name monitors show.
@Suite(.runsLeftoverJobs) struct QueryFeedbackSpellingTests {
  typealias State = QueryAndPredicateGuaranteeTests.State
  typealias Event = QueryAndPredicateGuaranteeTests.Event

  enum Spelling: String, CaseIterable, Sendable {
    case lensing
    case skippingRepeated
    case reactRequest = "react(request:)"

    func feedback() -> Feedback<State, Event> {
      let effects: @Sendable (String) -> Effect<Event> = { query in
        .after(.seconds(1), send: .result("found \(query)"))
      }
      return switch self {
      case .lensing: Feedback(lensing: \.query, effects: effects)
      case .skippingRepeated: Feedback(skippingRepeated: \.query, effects: effects)
      case .reactRequest: .react(request: \.query, effects: effects)
      }
    }
  }

  @Test(
    "G4 every spelling of the query feedback keeps an equal query, restarts a changed one, cancels on nil",
    arguments: Spelling.allCases)
  func test_G4_everySpellingIsTheSameFeedback(spelling: Spelling) {
    let harness = Harness()
    let activity = ActivityLog<State, Event>()
    let system = System(
      initial: State(query: "a"), reduceReturning: QueryAndPredicateGuaranteeTests.reduce,
      feedbacks: [spelling.feedback()],
      environment: harness.environment, monitor: activity.monitor)
    harness.settle()
    system.send(.touch)
    system.send(.setQuery("b"))
    harness.settle()
    harness.clock.advance(by: .seconds(1))
    system.send(.setQuery("c"))
    system.send(.setQuery(nil))
    harness.clock.advance(by: .seconds(5))

    #expect(system.state.log == ["touch", "found b"])
    #expect(activity.started.map(\.trigger) == ["a", "b", "c"])
    #expect(activity.cancelled.map(\.trigger) == ["a", "c"])
  }

  @Test("every spelling keeps its own name in the feedback's default name", arguments: Spelling.allCases)
  func defaultNameSaysTheSpelling(spelling: Spelling) {
    #expect(spelling.feedback().name.hasPrefix("\(spelling.rawValue)@"))
  }
}
