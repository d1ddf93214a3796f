import FeedbackLoop
import HashTreeCollections

/// W6: a keyed feedback (`requests(_:)`) over a window of `keys` keys;
/// each event slides the window by one: one key added, one removed, so one
/// effect starts and one is cancelled per event.
///
/// `W6`, `W6-100` and `W6-10000` keep the keys in a `TrackedSet`, the
/// library's answer for many requests churned a few at a time: the reducer
/// changes the set in place and logs the two keys, the feedback reads them
/// from the log. The references keep the other forms' costs in sight:
/// `W6tree` and `W6tree-100` keep the keys in swift-collections' `TreeSet`
/// (the reducer copies one path of the tree, the feedback diffs the changed
/// paths: O(log n)), `W6set` and `W6set-100` in a `Set` (copy on write and
/// diff: O(n)).
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

  /// W6 at 1,000 keys (`W6`), at 100 (`W6-100`) and at 10,000 (`W6-10000`),
  /// over a `TrackedSet`.
  public static func workload(keys: Int) -> Workload {
    churn(
      "W6", over: "TrackedSet", keys: keys,
      feedback: .requests({ (state: State<TrackedSet<Int>>) in state.keys }) { _ in .none })
  }

  /// The same over a `TreeSet` (`W6tree`, `W6tree-100`): a reference.
  public static func treeWorkload(keys: Int) -> Workload {
    churn(
      "W6tree", over: "TreeSet", keys: keys,
      feedback: .requests({ (state: State<TreeSet<Int>>) in state.keys }) { _ in .none })
  }

  /// The same over a `Set` (`W6set`, `W6set-100`): a reference.
  public static func setWorkload(keys: Int) -> Workload {
    churn(
      "W6set", over: "Set", keys: keys,
      feedback: .requests({ (state: State<Set<Int>>) in state.keys }) { _ in .none })
  }

  /// The workload `name` (suffixed with the key count unless 1,000) of one
  /// form of the keyed feedback.
  static func churn<Keys>(
    _ name: String, over collection: String, keys: Int, feedback: Feedback<State<Keys>, Event>
  ) -> Workload {
    Workload(
      id: keys == 1_000 ? name : "\(name)-\(keys)",
      summary: "requests(_:) over a \(collection) of \(keys) keys, 20,000 events adding one and removing one",
      operations: eventCount, runs: 9,
      makeTrial: { trial(keys: keys, events: eventCount, feedback: feedback) })
  }

  /// W6's reducer alone, folded over the events by a plain loop on a
  /// `TrackedSet` of `keys` keys (`W6fold`, `W6fold-100`, `W6fold-10000`): what
  /// the two hash-table operations and their log cost at that size, so that
  /// W6's growth with the key count can be told apart from theirs (a larger
  /// table misses the caches more often).
  public static func foldWorkload(keys: Int) -> Workload {
    Workload(
      id: keys == 1_000 ? "W6fold" : "W6fold-\(keys)",
      summary: "W6's reducer folded over 20,000 events on a TrackedSet of \(keys) keys, no system",
      operations: eventCount, runs: 9,
      makeTrial: {
        let result = Slot<State<TrackedSet<Int>>>()
        return Trial(
          run: { result.value = fold(State(keys: keys), events: eventCount) },
          finish: {
            check(result.value?.low == eventCount && result.value?.keys.count == keys, "W6fold ended elsewhere")
          })
      })
  }

  @inline(never)
  static func fold(_ initial: State<TrackedSet<Int>>, events count: Int) -> State<TrackedSet<Int>> {
    var state = initial
    for _ in 0..<count { reduce(&state, opaque(Event.slide)) }
    return state
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
    let system = System(initial: State<Keys>(keys: keys), reduce: reduce, feedbacks: [feedback])
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
