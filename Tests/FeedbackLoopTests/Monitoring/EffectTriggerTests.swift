import FeedbackLoopScenarios
import FeedbackLoopTesting
import Testing

@testable import FeedbackLoop

/// What started each effect (``EffectID/trigger``) is kept for the monitor
/// in the monitor's box, by feedback and effect number, from the effect's
/// start to its end: each report names its own feedback's trigger, the
/// table empties as effects end, and a system without a monitor that
/// describes triggers keeps none.
@Suite(.runsLeftoverJobs) struct EffectTriggerTests {
  enum Event: Sendable, Equatable { case set(Int), done(String) }

  static func reduce(_ state: Int, _ event: Event) -> Int {
    if case .set(let value) = event { return value }
    return state
  }

  /// Two query feedbacks whose effects are numbered alike (each feedback
  /// counts its own from 1), with timers, an immediate answer and a
  /// cancellation among them.
  static func feedbacks() -> [Feedback<Int, Event>] {
    [
      Feedback.query({ $0 > 0 ? "left \($0)" : nil }) { query in
        .after(.seconds(1), send: .done(query))
      },
      Feedback.query({ $0 > 0 ? "right \($0)" : nil }) { query in
        .after(.seconds(2), send: .done(query))
      },
      Feedback.query({ $0 > 1 ? "now \($0)" : nil }) { query in .send(.done(query)) },
    ]
  }

  static func triggerTable(_ system: System<Int, Event>) -> [EffectToken: String]? {
    system.core.monitorBox?._withUnsafeGuaranteedRef { $0.triggers }
  }

  @Test("each effect's reports carry its own feedback's trigger, though the feedbacks number their effects alike")
  func sameNumbersInTwoFeedbacks() {
    let harness = Harness()
    let activity = ActivityLog<Int, Event>()
    let system = System(
      initial: 0, reduceReturning: Self.reduce, feedbacks: Self.feedbacks(), environment: harness.environment,
      monitor: activity.monitor)
    system.send(.set(1))
    harness.settle()
    system.send(.set(2))  // cancels both timers for 1, starts both for 2 and the immediate one
    harness.clock.advance(by: .seconds(2))

    #expect(
      activity.started.map { "#\($0.feedback.index) \($0.number) \($0.trigger ?? "nil")" }.sorted() == [
        "#0 1 left 1", "#0 2 left 2", "#1 1 right 1", "#1 2 right 2", "#2 1 now 2",
      ])
    #expect(
      activity.cancelled.map { "#\($0.feedback.index) \($0.trigger ?? "nil")" }.sorted() == [
        "#0 left 1", "#1 right 1",
      ])
    #expect(
      activity.finished.map { "#\($0.feedback.index) \($0.trigger ?? "nil")" }.sorted() == [
        "#0 left 2", "#1 right 2", "#2 now 2",
      ])
    #expect(system.state == 2)
    #expect(Self.triggerTable(system)?.isEmpty == true, "every effect ended: its trigger is forgotten")
  }

  @Test("the trigger table holds only the effects still running or waiting")
  func tableHoldsOnlyRunningEffects() {
    let harness = Harness()
    let activity = ActivityLog<Int, Event>()
    let system = System(
      initial: 0, reduceReturning: Self.reduce, feedbacks: Self.feedbacks(), environment: harness.environment,
      monitor: activity.monitor)
    for value in 1...200 { system.send(.set(value)) }
    harness.settle()
    // The two timers for 200 run; the immediate effects and every timer
    // for an earlier value ended.
    #expect(Self.triggerTable(system)?.values.sorted() == ["left 200", "right 200"])
    harness.clock.advance(by: .seconds(2))
    #expect(Self.triggerTable(system)?.isEmpty == true)
    #expect(activity.finished.count == 199 + 2)
  }

  @Test("a monitor that describes no triggers gets none, and the table stays empty")
  func monitorWithoutTriggers() {
    let harness = Harness()
    let started = Log<String?>()
    let system = System(
      initial: 0, reduceReturning: Self.reduce, feedbacks: Self.feedbacks(), environment: harness.environment,
      monitor: SystemMonitor(
        { activity in if case .effectStarted(let id) = activity { started.append(id.trigger) } },
        countingReductions: { _ in }, describingTriggers: false))
    system.send(.set(3))
    harness.settle()
    #expect(started.entries == [nil, nil, nil])
    #expect(Self.triggerTable(system)?.isEmpty == true)
    harness.clock.advance(by: .seconds(2))
  }

  @Test("timers due after their system was released find no table, and report no end")
  func effectsEndingAfterRelease() {
    let harness = Harness()
    let activity = ActivityLog<Int, Event>()
    var system: System<Int, Event>? = System(
      initial: 0, reduceReturning: Self.reduce, feedbacks: Self.feedbacks(), environment: harness.environment,
      monitor: activity.monitor)
    system?.send(.set(5))
    harness.settle()
    let finishedBefore = activity.finished.map(\.trigger)
    system = nil  // released: stops, and drops the monitor's box
    harness.clock.advance(by: .seconds(2))
    #expect(finishedBefore == ["now 5"])
    #expect(activity.finished.map(\.trigger) == finishedBefore)
  }
}
