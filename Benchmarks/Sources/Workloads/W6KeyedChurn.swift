import FeedbackLoop
import HashTreeCollections

/// W6: a keyed feedback (`react(requests:)`) over a window of `keys` keys;
/// each event slides the window by one: one key added, one removed, so one
/// effect starts and one is cancelled per event.
///
/// `W6` and `W6-100` keep the keys in a `TreeSet`, the library's answer for
/// many requests churned a few at a time: the reducer copies one path of the
/// tree, the feedback diffs only the changed paths. `W6set` and `W6set-100`
/// keep them in a `Set`, whose copy on write and diff cost O(n) per event,
/// as references that keep that cost in sight.
public enum KeyedChurn {
  /// 20,000 events slide a window of 1,000 keys past 20 times over: a steady
  /// state, and a run that stays under a few seconds while each event costs
  /// tens of microseconds (the `Set` reference; see BENCHMARKS.md).
  public static let eventCount = 20_000

  public struct State<Keys: SetAlgebra & Collection & Sendable & Equatable>: Sendable, Equatable
  where Keys.Element == Int {
    public var keys: Keys
    public var low: Int
    public var high: Int

    public init(keys count: Int) {
      keys = Keys(0..<count)
      low = 0
      high = count
    }
  }

  public enum Event: Sendable, Equatable {
    case slide
  }

  /// W6 at 1,000 keys (`W6`) and at 100 keys (`W6-100`), over a `TreeSet`.
  public static func workload(keys: Int) -> Workload {
    Workload(
      id: keys == 1_000 ? "W6" : "W6-\(keys)",
      summary: "react(requests:) over a TreeSet of \(keys) keys, 20,000 events adding one and removing one",
      operations: eventCount, runs: 9,
      makeTrial: {
        trial(
          keys: keys, events: eventCount,
          feedback: .react(requests: { (state: State<TreeSet<Int>>) in state.keys }) { _ in .none })
      })
  }

  /// The same over a `Set` (`W6set`, `W6set-100`): the reference.
  public static func setWorkload(keys: Int) -> Workload {
    Workload(
      id: keys == 1_000 ? "W6set" : "W6set-\(keys)",
      summary: "react(requests:) over a Set of \(keys) keys, 20,000 events adding one and removing one",
      operations: eventCount, runs: 9,
      makeTrial: {
        trial(
          keys: keys, events: eventCount,
          feedback: .react(requests: { (state: State<Set<Int>>) in state.keys }) { _ in .none })
      })
  }

  static func reduce<Keys>(_ state: inout State<Keys>, _ event: Event) {
    switch event {
    case .slide:
      state.keys.remove(state.low)
      state.low += 1
      state.keys.insert(state.high)
      state.high += 1
    }
  }

  /// `feedback` has one effect per key. It completes at once and sends
  /// nothing, so what is measured is the keyed bookkeeping, not tasks (W2a
  /// measures those).
  static func trial<Keys>(keys: Int, events count: Int, feedback: Feedback<State<Keys>, Event>) -> Trial {
    let system = System(initial: State<Keys>(keys: keys), reduceInPlace: reduce, feedbacks: [feedback])
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
