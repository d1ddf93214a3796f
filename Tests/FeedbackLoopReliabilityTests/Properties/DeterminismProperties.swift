import FeedbackLoop
import FeedbackLoopTesting
import PropertyBased
import Testing

extension Reliability {
  /// G13 on random schedules: timers, queries, keyed requests, synchronous
  /// answers and event-triggered effects, all at once.
  @Suite("Properties: determinism")
  struct DeterminismProperties {
    struct State: Sendable, Equatable, CustomStringConvertible {
      var total = 0
      var query: Int?
      var requests: Set<Int> = []
      var ticks = 0

      var description: String {
        "total \(total), query \(query.map(String.init) ?? "nil"), requests \(requests.sorted()), ticks \(ticks)"
      }
    }

    enum Event: Sendable, Equatable {
      case add(Int)
      case setQuery(Int?)
      case toggle(Int)
      case tick(query: Int, index: Int)
      case done(Int)
    }

    static func reduce(_ state: inout State, _ event: Event) {
      switch event {
      case .add(let amount): state.total += amount
      case .setQuery(let query): state.query = query
      case .toggle(let request):
        if state.requests.remove(request) == nil { state.requests.insert(request) }
      case .tick(let query, let index):
        state.ticks += 1
        state.total += query * index
      case .done(let request):
        state.requests.remove(request)
        state.total += 100
      }
    }

    static let feedbacks: [Feedback<State, Event>] = [
      Feedback.query(\.query, name: "ticker") { query in
        .run { send in
          for index in 0..<3 {
            try await send.clock.sleep(for: .milliseconds(100 * (query % 4 + 1)))
            send(.tick(query: query, index: index))
          }
        }
      },
      .requests(\.requests, name: "requests") { request in
        .after(.milliseconds(150 * (request + 1)), send: .done(request))
      },
      Feedback.predicate({ $0.total % 7 == 3 }, whenFalse: .keepRunning, name: "nudge") { _ in .send(.add(1)) },
      .onEvent(name: "chain") { event, _ in
        guard case .done(let request) = event, request % 2 == 0 else { return .none }
        return .send(.toggle(request + 1))
      },
    ]

    static var events: Generator<Event, some SendableSequenceType> {
      Gen<Event>.frequency(
        (weight: 3, gen: Gen.int(in: -5...5).map { .add($0) }),
        (weight: 2, gen: Gen.int(in: -1...3).map { .setQuery($0 < 0 ? nil : $0) }),
        (weight: 3, gen: Gen.int(in: 0...4).map { .toggle($0) })
      )
    }

    /// Runs a script on a fresh system; returns the events it reduced and
    /// the states they produced, as the reducer saw them.
    static func record(_ script: Script<Event>) -> (events: [Event], states: [State], activities: Int) {
      let harness = Harness()
      let trace = Locked<[(Event, State)]>([])
      let activity = ActivityRecorder<State, Event>()
      let system = System(
        initial: State(),
        reduce: { state, event in
          reduce(&state, event)
          trace.withLock { $0.append((event, state)) }
        },
        feedbacks: feedbacks, environment: harness.environment, monitor: activity.monitor)
      script.run(on: system, harness)
      system.stop()
      harness.settle()
      let recorded = trace.current
      return (recorded.map(\.0), recorded.map(\.1), activity.all.count)
    }

    @Test(
      "G13 random schedules: the same initial state and inputs give the same states, and the event log replays to them")
    func sameInputsSameStates() async {
      var eventsReduced = 0
      let cases = await Property.check(
        "G13 same inputs, same states", input: Script.generator(events: Self.events)
      ) { script in
        let first = Self.record(script)
        let second = Self.record(script)
        eventsReduced += first.events.count + second.events.count
        if first.events != second.events {
          let common = min(first.events.count, second.events.count)
          let index = (0..<common).first { first.events[$0] != second.events[$0] } ?? common
          return "the runs reduced different events from index \(index): \(first.events[index...].prefix(3)) "
            + "vs \(second.events[index...].prefix(3))"
        }
        if first.states != second.states { return "the runs went through different states" }
        if first.activities != second.activities {
          return "the monitors saw \(first.activities) and \(second.activities) activities"
        }
        // The model: a plain fold of the recorded events.
        var state = State()
        for (index, event) in first.events.enumerated() {
          Self.reduce(&state, event)
          if state != first.states[index] {
            return "replaying the log diverges at event \(index) (\(event)): \(state) vs \(first.states[index])"
          }
        }
        return nil
      }
      reportFigure(
        "G13 determinism: \(cases) random schedules run twice each, \(eventsReduced) events reduced, 0 divergences")
    }
  }
}
