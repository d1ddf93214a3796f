import FeedbackLoop
import FeedbackLoopUI
import Observation

/// W13: W12 with one `withObservationTracking` on the store's `count`, armed
/// again before each event as a view re-renders, beside W13plain, the plain
/// `@Observable` class with the same tracking, in the same run. Every event
/// changes `count`, so every event fires the tracking once.
public enum StoreTracked {
  public static let eventCount = 200_000

  public static let workload = Workload(
    id: "W13", summary: "200,000 Store.send, each after arming one observation tracking",
    operations: eventCount, runs: 11,
    makeTrial: { MainActor.assumeIsolated { trial(events: Counter.events(count: eventCount)) } })

  public static let plain = Workload(
    id: "W13plain", summary: "200,000 mutations of a plain @Observable class, each after arming one tracking",
    operations: eventCount, runs: 11,
    makeTrial: { MainActor.assumeIsolated { plainTrial(events: Counter.events(count: eventCount)) } })

  @MainActor
  static func trial(events: [CounterEvent]) -> Trial {
    let store = Store(initial: CountState(), reduce: CountState.reduce)
    let changes = ChangeCount()
    let expected = Counter.finalState(count: events.count)
    return Trial(
      run: { @MainActor in
        for event in events {
          withObservationTracking {
            _ = store.count
          } onChange: {
            changes.increment()
          }
          store.send(event)
        }
      },
      finish: { @MainActor in
        check(store.count == expected, "W13 ended at \(store.count)")
        check(changes.value == events.count, "W13 saw \(changes.value) changes")
        store.stop()
      })
  }

  @MainActor
  static func plainTrial(events: [CounterEvent]) -> Trial {
    let model = PlainCountModel()
    let changes = ChangeCount()
    let expected = Counter.finalState(count: events.count)
    return Trial(
      run: { @MainActor in
        for event in events {
          withObservationTracking {
            _ = model.count
          } onChange: {
            changes.increment()
          }
          model.apply(event)
        }
      },
      finish: { @MainActor in
        check(model.count == expected, "W13plain ended at \(model.count)")
        check(changes.value == events.count, "W13plain saw \(changes.value) changes")
      })
  }
}

/// Counts Observation's change callbacks in W13.
final class ChangeCount: @unchecked Sendable {
  // Sendable: the callbacks run synchronously inside the mutation, on the
  // main actor, which is the only place that reads and writes `value`.
  private(set) var value = 0

  func increment() { value += 1 }
}
