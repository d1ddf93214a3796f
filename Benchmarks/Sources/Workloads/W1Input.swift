import FeedbackLoop

/// W1: a system with one input feedback; the events are sent from outside
/// through an ``Input``, and the run ends when the last state is observed.
public enum InputThroughput {
  public static let eventCount = 1_000_000

  public static let workload = Workload(
    id: "W1", summary: "1,000,000 events through one Input", operations: eventCount, runs: 11,
    makeTrial: { trial(events: Counter.events(count: eventCount)) })

  public static func trial(events: [CounterEvent]) -> Trial {
    let input = Input<CounterEvent>()
    let system = System(initial: 0, reduceReturning: Counter.reduce, feedbacks: [.input(input)])
    let expected = Counter.finalState(count: events.count)
    return Trial(
      run: {
        for event in events { input.send(event) }
        await system.waitUntil { $0 == expected }
      },
      finish: {
        check(system.state == expected, "W1 ended at \(system.state)")
        system.stop()
      })
  }
}
