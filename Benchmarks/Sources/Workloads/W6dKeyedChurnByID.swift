import FeedbackLoop

/// W6 by id, a reference beside W6: `requests(_:)` by id over `keys`
/// ids; each event removes one id, adds one and gives a kept id a new value,
/// so one effect starts, one is cancelled and one is handed a value per
/// event.
///
/// `W6dict` and `W6dict-100` keep the ids in a `TrackedDictionary`;
/// `W6dictplain` in a `Dictionary` (the feedback compares whole
/// dictionaries: O(n)). Every started effect gets its stream of later
/// values (the by-id form makes one per id), so these cost more than W6.
public enum KeyedChurnByID {
  public static let eventCount = 20_000

  public struct State<Requests: Sendable & Equatable>: Sendable, Equatable {
    public var requests: Requests
    public var low: Int
  }

  public enum Event: Sendable, Equatable {
    case slide
  }

  /// W6dict at 1,000 ids (`W6dict`) and at 100 (`W6dict-100`).
  public static func workload(ids: Int) -> Workload {
    Workload(
      id: ids == 1_000 ? "W6dict" : "W6dict-\(ids)",
      summary: "requests(_:) by id over a TrackedDictionary of \(ids) ids, 20,000 events",
      operations: eventCount, runs: 9,
      makeTrial: {
        trial(
          initial: State(
            requests: TrackedDictionary(Dictionary(uniqueKeysWithValues: (0..<ids).map { ($0, 0) })), low: 0),
          ids: ids,
          reduce: { state, event in
            state.requests[state.low] = nil
            state.requests[state.low + ids] = 0
            state.requests[state.low + ids / 2] = state.low + 1
            state.low += 1
          },
          count: { $0.requests.count },
          feedback: .requests(\.requests) { _, _, _ in .none })
      })
  }

  /// The same over a `Dictionary` of 1,000 ids (`W6dictplain`).
  public static let plainWorkload = Workload(
    id: "W6dictplain", summary: "requests(_:) by id over a Dictionary of 1000 ids, 20,000 events",
    operations: eventCount, runs: 9,
    makeTrial: {
      trial(
        initial: State(requests: Dictionary(uniqueKeysWithValues: (0..<1_000).map { ($0, 0) }), low: 0),
        ids: 1_000,
        reduce: { state, event in
          state.requests[state.low] = nil
          state.requests[state.low + 1_000] = 0
          state.requests[state.low + 500] = state.low + 1
          state.low += 1
        },
        count: { $0.requests.count },
        feedback: .requests(\.requests) { _, _, _ in .none })
    })

  static func trial<Requests>(
    initial: State<Requests>, ids: Int, reduce: @escaping @Sendable (inout State<Requests>, Event) -> Void,
    count: @escaping @Sendable (State<Requests>) -> Int, feedback: Feedback<State<Requests>, Event>
  ) -> Trial {
    let system = System(initial: initial, reduce: reduce, feedbacks: [feedback])
    let expectedLow = eventCount
    return Trial(
      run: {
        for _ in 0..<eventCount { system.send(.slide) }
        await system.waitUntil { $0.low == expectedLow }
      },
      finish: {
        let state = system.state
        check(state.low == expectedLow && count(state) == ids, "W6dict ended at low \(state.low)")
        system.stop()
      })
  }
}
