import FeedbackLoop

/// W3: State is 100 counters; 100 query feedbacks, feedback i watching
/// counter i; input events bump counter k % 100. Each event changes the query
/// of one feedback and leaves 99 unchanged.
///
/// `W3` keeps the counters in a `TrackedArray` and watches them by position
/// (`Feedback.query(\.counters, at: i)`): the system reads which counter
/// changed from the array's log and asks that counter's feedback alone.
/// `W3-1000` is the same with 1,000 counters and 1,000 feedbacks: the
/// stretch target is a cost that does not grow with the feedbacks whose
/// input did not change. `W3plain` is the reference: counters in an `Array`,
/// feedbacks with a closure query (`Feedback.query({ $0.counters[i] })`),
/// every query compared after every event.
public enum ManyFeedbacks {
  public static let eventCount = 100_000
  public static let counterCount = 100

  public struct State<Counters: MutableCollection & RandomAccessCollection & Sendable & Equatable>: Sendable,
    Equatable
  where Counters.Element == Int, Counters.Index == Int {
    public var counters: Counters
  }

  public enum Event: Sendable, Equatable {
    case bump(Int)
  }

  public static let workload = Workload(
    id: "W3", summary: "100 query feedbacks on a TrackedArray, 100,000 input events", operations: eventCount,
    runs: 9,
    makeTrial: {
      trial(
        initial: State(counters: TrackedArray(repeating: 0, count: counterCount)),
        feedbacks: trackedFeedbacks(count: counterCount), events: events(counters: counterCount))
    })

  public static let thousandFeedbacks = Workload(
    id: "W3-1000", summary: "1,000 query feedbacks on a TrackedArray, 100,000 input events",
    operations: eventCount, runs: 9,
    makeTrial: {
      trial(
        initial: State(counters: TrackedArray(repeating: 0, count: 1_000)),
        feedbacks: trackedFeedbacks(count: 1_000), events: events(counters: 1_000))
    })

  public static let plain = Workload(
    id: "W3plain", summary: "100 query feedbacks with closure queries on an Array, 100,000 input events",
    operations: eventCount, runs: 9,
    makeTrial: {
      trial(
        initial: State(counters: Array(repeating: 0, count: counterCount)),
        feedbacks: (0..<counterCount).map { index in
          Feedback.query({ $0.counters[index] }) { _ in .none }
        },
        events: events(counters: counterCount))
    })

  static func events(counters: Int) -> [Event] { (0..<eventCount).map { .bump($0 % counters) } }

  static func trackedFeedbacks(count: Int) -> [Feedback<State<TrackedArray<Int>>, Event>] {
    (0..<count).map { index in Feedback.query(\.counters, at: index) { _ in .none } }
  }

  /// The reducer changes the state in place: the form meant for a state
  /// larger than a word.
  static func reduce<Counters>(_ state: inout State<Counters>, _ event: Event) {
    switch event {
    case .bump(let index): state.counters[index] += 1
    }
  }

  static func trial<Counters>(
    initial: State<Counters>, feedbacks: [Feedback<State<Counters>, Event>], events: [Event]
  ) -> Trial {
    let input = Input<Event>()
    let system = System(initial: initial, reduce: reduce, feedbacks: [.input(input)] + feedbacks)
    var expected = initial
    for event in events { reduce(&expected, event) }
    let final = expected
    return Trial(
      run: {
        for event in events { input.send(event) }
        await system.waitUntil { $0 == final }
      },
      finish: {
        check(system.state == final, "W3 ended in another state")
        system.stop()
      })
  }
}
