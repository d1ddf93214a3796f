import FeedbackLoop
import FeedbackLoopUI
import Observation

/// W12: `Store.send` on the main actor, no view tracking, beside W12plain, a
/// plain `@Observable` class mutated directly, in the same run.
///
/// The store and the class are made on the main actor when the trial is made
/// (the timings executable makes trials in its top-level code, which runs on
/// the main actor): making them is not measured.
public enum StoreSend {
  public static let eventCount = 200_000

  public static let workload = Workload(
    id: "W12", summary: "200,000 Store.send on the main actor", operations: eventCount, runs: 11,
    makeTrial: { MainActor.assumeIsolated { trial(events: Counter.events(count: eventCount)) } })

  public static let plain = Workload(
    id: "W12plain", summary: "200,000 mutations of a plain @Observable class on the main actor",
    operations: eventCount, runs: 11,
    makeTrial: { MainActor.assumeIsolated { plainTrial(events: Counter.events(count: eventCount)) } })

  @MainActor
  static func trial(events: [CounterEvent]) -> Trial {
    let store = Store(initial: CountState(), reduce: CountState.reduce)
    let expected = Counter.finalState(count: events.count)
    return Trial(
      run: { @MainActor in
        for event in events { store.send(event) }
      },
      finish: { @MainActor in
        check(store.count == expected, "W12 ended at \(store.count)")
        store.stop()
      })
  }

  @MainActor
  static func plainTrial(events: [CounterEvent]) -> Trial {
    let model = PlainCountModel()
    let expected = Counter.finalState(count: events.count)
    return Trial(
      run: { @MainActor in
        for event in events { model.apply(event) }
      },
      finish: { @MainActor in
        check(model.count == expected, "W12plain ended at \(model.count)")
      })
  }
}

/// The state of W12 and W13: one counter.
struct CountState: Equatable, Sendable {
  var count = 0

  @Sendable
  static func reduce(_ state: inout CountState, _ event: CounterEvent) {
    switch event {
    case .increment: state.count += 1
    case .decrement: state.count -= 1
    }
  }
}

/// The baseline of W12 and W13: what an app writes without a store.
@MainActor
@Observable
final class PlainCountModel {
  var count = 0

  func apply(_ event: CounterEvent) {
    switch event {
    case .increment: count += 1
    case .decrement: count -= 1
    }
  }
}
