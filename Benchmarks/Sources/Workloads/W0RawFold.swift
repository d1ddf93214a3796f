/// W0, the baseline: the reducer, as a closure, folded over the events by a
/// plain loop. No system, no feedback: the physical limit the others are
/// compared with.
public enum RawFold {
  public static let eventCount = 1_000_000

  public static let workload = Workload(
    id: "W0", summary: "raw fold of a closure reducer", operations: eventCount, runs: 21,
    makeTrial: { trial(events: Counter.events(count: eventCount)) })

  public static func trial(events: [CounterEvent]) -> Trial {
    let reduce = opaque(Counter.reduce)
    let expected = Counter.finalState(count: events.count)
    let result = Slot<Int>()
    return Trial(
      run: { result.value = fold(events, reduce) },
      finish: { check(result.value == expected, "W0 ended at \(String(describing: result.value))") })
  }

  /// `for e in events { state = reduce(state, e) }`.
  @inline(never)
  public static func fold(_ events: [CounterEvent], _ reduce: (Int, CounterEvent) -> Int) -> Int {
    var state = 0
    for event in events { state = reduce(state, event) }
    return state
  }
}
