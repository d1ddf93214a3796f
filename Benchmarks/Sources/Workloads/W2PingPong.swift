import FeedbackLoop

/// W2 and W2a: a state-driven feedback answers each state below `n` with the
/// next event: the whole state → feedback → event → reducer round trip, `n`
/// times. The system starts when it is made, so making it is measured too
/// (a few microseconds, against `n` round trips).
public enum PingPong {
  public static let roundTrips = 100_000

  /// W2: the effect answers at once (`.send`).
  public static let synchronous = Workload(
    id: "W2", summary: "100,000 round trips, effect .send", operations: roundTrips, runs: 21,
    makeTrial: { synchronousTrial(roundTrips: roundTrips) })

  /// W2a: the effect is an `async` function, one real task per round trip.
  public static let asynchronous = Workload(
    id: "W2a", summary: "100,000 round trips, effect .task", operations: roundTrips, runs: 9,
    makeTrial: { asynchronousTrial(roundTrips: roundTrips) })

  public static func synchronousTrial(roundTrips n: Int) -> Trial {
    let slot = Slot<System<Int, CounterEvent>>()
    return Trial(
      run: {
        let system = System(
          initial: 0, reduceReturning: Counter.reduce,
          feedbacks: [Feedback.query({ $0 < n ? $0 : nil }) { _ in .send(.increment) }])
        await system.waitUntil { $0 == n }
        slot.value = system
      },
      finish: { finish(slot.value, "W2", expected: n) })
  }

  public static func asynchronousTrial(roundTrips n: Int) -> Trial {
    let slot = Slot<System<Int, CounterEvent>>()
    return Trial(
      run: {
        let system = System(
          initial: 0, reduceReturning: Counter.reduce,
          feedbacks: [Feedback.query({ $0 < n ? $0 : nil }) { _ in .task { .increment } }])
        await system.waitUntil { $0 >= n }
        slot.value = system
      },
      finish: { finish(slot.value, "W2a", expected: n) })
  }

  private static func finish(_ system: System<Int, CounterEvent>?, _ id: String, expected: Int) {
    guard let system else { return check(false, "\(id) made no system") }
    check(system.state == expected, "\(id) ended at \(system.state)")
    system.stop()
  }
}
