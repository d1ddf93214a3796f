import FeedbackLoop

/// W6: a keyed feedback (`react(requests:)`) over a window of `keys` keys;
/// each event slides the window by one: one key added, one removed, so one
/// effect starts and one is cancelled per event.
public enum KeyedChurn {
  /// 20,000 events slide a window of 1,000 keys past 20 times over: a steady
  /// state, and a run that stays under a few seconds while each event costs
  /// tens of microseconds (see BENCHMARKS.md).
  public static let eventCount = 20_000

  public struct State: Sendable, Equatable {
    public var keys: Set<Int>
    public var low: Int
    public var high: Int

    public init(keys count: Int) {
      keys = Set(0..<count)
      low = 0
      high = count
    }
  }

  public enum Event: Sendable, Equatable {
    case slide
  }

  /// W6 at 1,000 keys (`W6`) and at 100 keys (`W6-100`).
  public static func workload(keys: Int) -> Workload {
    Workload(
      id: keys == 1_000 ? "W6" : "W6-\(keys)",
      summary: "react(requests:) over \(keys) keys, 20,000 events adding one and removing one",
      operations: eventCount, runs: 9,
      makeTrial: { trial(keys: keys, events: eventCount) })
  }

  public static let reduce: @Sendable (inout State, Event) -> Void = { state, event in
    switch event {
    case .slide:
      state.keys.remove(state.low)
      state.low += 1
      state.keys.insert(state.high)
      state.high += 1
    }
  }

  /// One effect per key. It completes at once and sends nothing, so what is
  /// measured is the keyed bookkeeping, not tasks (W2a measures those).
  public static func feedbacks() -> [Feedback<State, Event>] {
    [.react(requests: { $0.keys }) { _ in .none }]
  }

  public static func trial(keys: Int, events count: Int) -> Trial {
    let system = System(initial: State(keys: keys), reduceInPlace: reduce, feedbacks: feedbacks())
    let expectedLow = count
    return Trial(
      run: {
        for _ in 0..<count { system.send(.slide) }
        await system.waitUntil { $0.low == expectedLow }
      },
      finish: {
        let state = system.state
        check(state.low == expectedLow && state.keys.count == keys, "W6 ended at low \(state.low)")
        system.stop()
      })
  }
}
