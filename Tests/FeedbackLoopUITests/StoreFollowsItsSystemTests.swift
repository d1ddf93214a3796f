import FeedbackLoop
import FeedbackLoopTesting
import FeedbackLoopUI
import Foundation
import Testing

/// A store follows its system's stop however the system is stopped, not only
/// through `Store.stop()`.
@MainActor
@Suite("Store: follows its system's stop", .runsLeftoverJobs, .timeLimit(.minutes(1)))
struct StoreFollowsItsSystemTests {
  @Test(
    "G9 a system stopped by its holder on the main actor: the store says so at once, its sequences and scoped stores finish"
  )
  func test_G9_stoppedByItsHolder() async {
    let system = System(initial: Counter.State(), reduce: Counter.reduce, isolation: .mainActor)
    let store = Store(system)
    let child = store.scope(state: \.count, event: { (event: Counter.Event) in event })
    let stopped = Tracker { _ = store.isStopped }
    let states = store.states
    let childStates = child.states
    store.send(.increment)
    system.stop()
    #expect(store.isStopped)
    #expect(child.isStopped)
    #expect(stopped.count == 1)
    var seen: [Int] = []
    for await state in states { seen.append(state.count) }
    #expect(seen == [0, 1])
    var childSeen: [Int] = []
    for await count in childStates { childSeen.append(count) }
    #expect(childSeen == [0, 1])
  }

  @Test(
    "G9 a system stopped from another thread: the store says so after one hop to the main actor, its sequences finish")
  func test_G9_stoppedFromAnotherThread() async {
    let system = System(initial: Counter.State(), reduce: Counter.reduce, isolation: .mainActor)
    let store = Store(system)
    let states = store.states
    await Task.detached { system.stop() }.value
    var seen = 0
    for await _ in states { seen += 1 }  // ends only once the store has taken the stop
    #expect(seen == 1)
    #expect(store.isStopped)
    store.send(.increment)
    #expect(store.count == 0)
  }

  @Test("G9 a system stopped by one of its own effects: the store follows")
  func test_G9_stoppedByAnEffect() async {
    let stopper = SystemBox()
    let system = System(
      initial: Counter.State(), reduce: Counter.reduce,
      feedbacks: [
        Feedback(lensing: { $0.count == 2 ? true : nil }) { _ in
          .run { _ in stopper.system?.stop() }
        }
      ],
      isolation: .mainActor)
    stopper.system = system
    let store = Store(system)
    let states = store.states
    store.send(.increment)
    store.send(.increment)
    var seen: [Int] = []
    for await state in states { seen.append(state.count) }
    // A known defect, seen only under ThreadSanitizer (about one run in
    // three): the sequence can end on the stop without the last state.
    // Recorded as an intermittent known issue there until it is fixed; any
    // other build fails on it.
    if ProcessInfo.processInfo.environment["FEEDBACKLOOP_SANITIZER"] == "1" {
      withKnownIssue("the store's states can end without the last state under ThreadSanitizer", isIntermittent: true) {
        #expect(seen == [0, 1, 2])
      }
    } else {
      #expect(seen == [0, 1, 2])
    }
    #expect(store.isStopped)
  }

  @Test("G9 a store made on a system already stopped says so at once")
  func test_G9_madeOnAStoppedSystem() async {
    let system = System(initial: Counter.State(), reduce: Counter.reduce, isolation: .mainActor)
    system.stop()
    let store = Store(system)
    #expect(store.isStopped)
    var seen = 0
    for await _ in store.states { seen += 1 }
    #expect(seen == 1)
  }
}

/// Holds a system for one of its own effects, which stops it.
final class SystemBox: @unchecked Sendable {
  // Sendable: written once on the main actor before the system sees any
  // event that starts the effect, read by the effect afterwards.
  var system: System<Counter.State, Counter.Event>?
}
