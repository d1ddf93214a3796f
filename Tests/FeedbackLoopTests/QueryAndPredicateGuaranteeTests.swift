import FeedbackLoop
import FeedbackLoopScenarios
import FeedbackLoopTesting
import Testing

/// G4 and G5: when query and predicate feedbacks start, keep and cancel effects.
@Suite(.runsLeftoverJobs) struct QueryAndPredicateGuaranteeTests {
  struct State: Sendable, Equatable {
    var query: String?
    var log: [String] = []
  }

  enum Event: Sendable, Equatable {
    case setQuery(String?)
    case result(String)
    case touch
  }

  static func reduce(_ state: State, _ event: Event) -> State {
    var state = state
    switch event {
    case .setQuery(let query): state.query = query
    case .result(let result): state.log.append(result)
    case .touch: state.log.append("touch")
    }
    return state
  }

  @Test("G4 an equal query restarts nothing; a changed one cancels and restarts; nil cancels")
  func test_G4_queryLifecycle() {
    let harness = Harness()
    let activity = ActivityLog<State, Event>()
    let system = System(
      initial: State(query: "a"), reduceReturning: Self.reduce,
      feedbacks: [
        Feedback.query(\.query, name: "search") { query in
          .after(.seconds(1), send: .result("found \(query)"))
        }
      ],
      environment: harness.environment, monitor: activity.monitor)
    harness.settle()
    #expect(activity.started.map(\.trigger) == ["a"])

    system.send(.touch)  // the query stays "a": nothing restarts
    harness.settle()
    #expect(activity.started.count == 1)
    #expect(activity.cancelled.isEmpty)

    system.send(.setQuery("b"))  // changed: cancel "a", start "b"
    harness.settle()
    #expect(activity.cancelled.map(\.trigger) == ["a"])
    #expect(activity.started.map(\.trigger) == ["a", "b"])

    harness.clock.advance(by: .seconds(1))
    #expect(system.state.log == ["touch", "found b"])

    system.send(.setQuery("c"))
    system.send(.setQuery(nil))  // nil cancels "c"
    harness.clock.advance(by: .seconds(5))
    #expect(system.state.log == ["touch", "found b"])
    #expect(activity.cancelled.map(\.trigger) == ["a", "c"])
    #expect(system.runningTaskCount == 0)
  }

  @Test("G4 events a replaced effect sent before its cancellation, not yet reduced, never reach the reducer")
  func test_G4_eventsQueuedBeforeCancellationAreDropped() {
    let activity = ActivityLog<State, Event>()
    // The effect for "a" sends two events at once; reducing the first
    // changes the query, which cancels the effect: the second must not be reduced.
    let system = System(
      initial: State(query: "a"), reduceReturning: Self.reduce,
      feedbacks: [
        Feedback.query(\.query) { query in
          query == "a" ? .send(contentsOf: [.setQuery("b"), .result("stale from a")]) : .none
        }
      ],
      monitor: activity.monitor)
    #expect(system.state == State(query: "b", log: []))
    #expect(activity.discarded.map(\.0) == [.result("stale from a")])
  }

  @Test("G4 events a cancelled effect sends after its cancellation never reach the reducer")
  func test_G4_eventsSentAfterCancellationAreDropped() {
    let harness = Harness()
    let activity = ActivityLog<State, Event>()
    let gate = Gate()
    let system = System(
      initial: State(query: "a"), reduceReturning: Self.reduce,
      feedbacks: [
        Feedback.query(\.query) { query in
          .run { send in
            await gate.wait()  // ignores cancellation
            send(.result("late \(query)"))
          }
        }
      ],
      environment: harness.environment, monitor: activity.monitor)
    harness.settle()
    system.send(.setQuery(nil))  // cancels the effect for "a"
    gate.open()
    harness.settle()
    #expect(system.state.log.isEmpty)
    #expect(activity.discarded.map(\.0) == [.result("late a")])
    #expect(system.runningTaskCount == 0)
  }

  @Test("G5 a predicate feedback starts the effect for each state where it holds, replacing the running one")
  func test_G5_levelTriggeredPredicate() {
    let harness = Harness()
    let activity = ActivityLog<State, Event>()
    let system = System(
      initial: State(), reduceReturning: Self.reduce,
      feedbacks: [
        Feedback.predicate({ $0.query == "go" }, whenFalse: .keepRunning) { state in
          .after(.seconds(1), send: .result("done after \(state.log.count)"))
        }
      ],
      environment: harness.environment, monitor: activity.monitor)
    system.send(.setQuery("go"))
    harness.clock.advance(by: .milliseconds(500))
    system.send(.touch)  // holds again: replaces the running effect
    harness.clock.advance(by: .milliseconds(500))
    #expect(system.state.log == ["touch"])
    #expect(activity.cancelled.count == 1)
    harness.clock.advance(by: .milliseconds(500))
    // The replacing effect's own event makes a state where the predicate holds, so one more starts.
    #expect(system.state.log == ["touch", "done after 1"])
    system.send(.setQuery(nil))  // a state where it does not hold changes nothing
    harness.clock.advance(by: .seconds(1))
    #expect(system.state.log == ["touch", "done after 1", "done after 2"])
  }

  @Test("G5 an edge-triggered predicate starts once when it becomes true, and cancels when it becomes false")
  func test_G5_risingEdgePredicate() {
    let harness = Harness()
    let activity = ActivityLog<State, Event>()
    let system = System(
      initial: State(), reduceReturning: Self.reduce,
      feedbacks: [
        Feedback.onBecomingTrue({ $0.query != nil }) { state in
          .after(.seconds(1), send: .result("edge for \(state.query!)"))
        }
      ],
      environment: harness.environment, monitor: activity.monitor)
    system.send(.setQuery("x"))
    system.send(.touch)  // still true: nothing restarts
    system.send(.setQuery("y"))  // still true: nothing restarts
    harness.clock.advance(by: .seconds(1))
    #expect(system.state.log == ["touch", "edge for x"])
    #expect(activity.started.count == 1)
    system.send(.setQuery(nil))
    system.send(.setQuery("z"))
    system.send(.setQuery(nil))  // becomes false before the second fires: cancelled
    harness.clock.advance(by: .seconds(2))
    #expect(system.state.log == ["touch", "edge for x"])
    #expect(activity.started.count == 2)
    #expect(activity.cancelled.count == 1)
  }

  @Test("G5 an edge-triggered query starts when it becomes non-nil after nil, and cancels on nil")
  func test_G5_risingEdgeQuery() {
    let harness = Harness()
    let activity = ActivityLog<State, Event>()
    let system = System(
      initial: State(query: "first"), reduceReturning: Self.reduce,
      feedbacks: [
        Feedback.onBecomingNonNil(\.query) { query in
          .after(.seconds(1), send: .result("edge \(query)"))
        }
      ],
      environment: harness.environment, monitor: activity.monitor)
    harness.settle()
    #expect(activity.started.map(\.trigger) == ["first"])  // non-nil at the initial state
    system.send(.setQuery("second"))  // non-nil to non-nil: no restart
    harness.clock.advance(by: .seconds(1))
    #expect(system.state.log == ["edge first"])
    system.send(.setQuery(nil))
    system.send(.setQuery("third"))
    harness.clock.advance(by: .seconds(1))
    #expect(system.state.log == ["edge first", "edge third"])
  }
}
