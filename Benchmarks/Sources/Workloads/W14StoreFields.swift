import FeedbackLoop
import FeedbackLoopUI
import Observation

/// W14: W12 on a store whose state has 20 members, each read through the
/// store (`store.field0` ... `store.field19`, as views showing them do) before
/// the run, so that the store follows each on its own; each event changes one
/// of them, in turn. What the store adds per event for the 19 members that did
/// not change is compared with W12, in the same run.
public enum StoreFields {
  public static let eventCount = 200_000
  public static let fieldCount = 20

  public static let workload = Workload(
    id: "W14", summary: "200,000 Store.send, 20 members read through the store, one changed per event",
    operations: eventCount, runs: 11,
    makeTrial: { MainActor.assumeIsolated { trial(eventCount: eventCount) } })

  @MainActor
  static func trial(eventCount: Int) -> Trial {
    let store = Store(initial: TwentyFields(), reduce: TwentyFields.reduce)
    let events = (0..<eventCount).map { $0 % fieldCount }
    // A view reading every member: the store now follows the 20 members.
    withObservationTracking {
      _ = store.field0
      _ = store.field1
      _ = store.field2
      _ = store.field3
      _ = store.field4
      _ = store.field5
      _ = store.field6
      _ = store.field7
      _ = store.field8
      _ = store.field9
      _ = store.field10
      _ = store.field11
      _ = store.field12
      _ = store.field13
      _ = store.field14
      _ = store.field15
      _ = store.field16
      _ = store.field17
      _ = store.field18
      _ = store.field19
    } onChange: {
    }
    return Trial(
      run: { @MainActor in
        for event in events { store.send(event) }
      },
      finish: { @MainActor in
        let total = store.state.total
        check(total == eventCount, "W14 ended with \(total) changes")
        check(store.field0 == (eventCount + fieldCount - 1) / fieldCount, "W14 ended at field0 \(store.field0)")
        store.stop()
      })
  }
}

/// The state of W14: 20 counters; an event is the index of the one it
/// increments.
struct TwentyFields: Equatable, Sendable {
  var field0 = 0
  var field1 = 0
  var field2 = 0
  var field3 = 0
  var field4 = 0
  var field5 = 0
  var field6 = 0
  var field7 = 0
  var field8 = 0
  var field9 = 0
  var field10 = 0
  var field11 = 0
  var field12 = 0
  var field13 = 0
  var field14 = 0
  var field15 = 0
  var field16 = 0
  var field17 = 0
  var field18 = 0
  var field19 = 0

  var total: Int {
    [
      field0, field1, field2, field3, field4, field5, field6, field7, field8, field9,
      field10, field11, field12, field13, field14, field15, field16, field17, field18, field19,
    ].reduce(0, +)
  }

  @Sendable
  static func reduce(_ state: inout TwentyFields, _ index: Int) {
    switch index {
    case 0: state.field0 += 1
    case 1: state.field1 += 1
    case 2: state.field2 += 1
    case 3: state.field3 += 1
    case 4: state.field4 += 1
    case 5: state.field5 += 1
    case 6: state.field6 += 1
    case 7: state.field7 += 1
    case 8: state.field8 += 1
    case 9: state.field9 += 1
    case 10: state.field10 += 1
    case 11: state.field11 += 1
    case 12: state.field12 += 1
    case 13: state.field13 += 1
    case 14: state.field14 += 1
    case 15: state.field15 += 1
    case 16: state.field16 += 1
    case 17: state.field17 += 1
    case 18: state.field18 += 1
    case 19: state.field19 += 1
    default: preconditionFailure("W14 has 20 fields")
    }
  }
}
