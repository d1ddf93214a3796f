import FeedbackLoop

/// W3: State is 100 counters; 100 lensing feedbacks, feedback i watching
/// counter i; input events bump counter k % 100. Each event changes the query
/// of one feedback and leaves 99 unchanged.
public enum ManyFeedbacks {
  public static let eventCount = 100_000
  public static let counterCount = 100

  public struct State: Sendable, Equatable {
    public var counters: [Int]
  }

  public enum Event: Sendable, Equatable {
    case bump(Int)
  }

  public static let workload = Workload(
    id: "W3", summary: "100 lensing feedbacks, 100,000 input events", operations: eventCount, runs: 9,
    makeTrial: { trial(events: (0..<eventCount).map { .bump($0 % counterCount) }) })

  /// The reducer changes the state in place: the form meant for a state
  /// larger than a word.
  public static let reduce: @Sendable (inout State, Event) -> Void = { state, event in
    switch event {
    case .bump(let index): state.counters[index] += 1
    }
  }

  public static func feedbacks(input: Input<Event>) -> [Feedback<State, Event>] {
    [.input(input)]
      + (0..<counterCount).map { index in
        Feedback(lensing: { $0.counters[index] }) { _ in .none }
      }
  }

  public static func trial(events: [Event]) -> Trial {
    let input = Input<Event>()
    let system = System(
      initial: State(counters: Array(repeating: 0, count: counterCount)), reduceInPlace: reduce,
      feedbacks: feedbacks(input: input))
    var expected = State(counters: Array(repeating: 0, count: counterCount))
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
