import FeedbackLoop
import FeedbackLoopTesting
import FeedbackLoopUI
import Foundation
import Observation
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
        Feedback.query({ $0.count == 2 ? true : nil }) { _ in
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
    #expect(seen == [0, 1, 2])
    #expect(store.isStopped)
  }

  @Test(
    "G9 an effect that stops its system from another thread before the store heard of the state that started it: the store takes that state, then stops"
  )
  func test_G9_stoppedByAnEffectBeforeTheStoreHeardOfItsState() async {
    let executor = ManualTaskExecutor()
    let stopper = SystemBox()
    let system = System(
      initial: Counter.State(), reduce: Counter.reduce,
      feedbacks: [
        Feedback.query({ $0.count == 2 ? true : nil }) { _ in
          .run { _ in stopper.system?.stop() }
        },
        // The effect runs on another thread while the loop is still in the
        // pass of the state that started it, before the observers: what a
        // slow main thread (ThreadSanitizer's) lets a real executor do.
        Feedback.observer({
          { state in
            if state.count == 2 { onThreadAndJoin { executor.runUntilIdle() } }
          }
        }),
      ],
      isolation: .mainActor, environment: SystemEnvironment(effectExecutor: executor))
    stopper.system = system
    let store = Store(system)
    let states = store.states
    store.send(.increment)
    store.send(.increment)
    #expect(system.isStopped)
    #expect(store.count == 2)
    var seen: [Int] = []
    for await state in states { seen.append(state.count) }  // ends once the stop's hop ran
    #expect(seen == [0, 1, 2])
    #expect(store.isStopped)
  }

  @Test(
    "G9 a system stopped from another thread by an observer told before the store: the store takes the state, then stops"
  )
  func test_G9_stoppedFromAnotherThreadByAnEarlierObserver() async {
    let stopper = SystemBox()
    let system = System(initial: Counter.State(), reduce: Counter.reduce, isolation: .mainActor)
    stopper.system = system
    let observation = system.observe { state in
      if state.count == 2 { onThreadAndJoin { stopper.system?.stop() } }
    }
    let store = Store(system)
    let states = store.states
    store.send(.increment)
    store.send(.increment)
    #expect(store.count == 2)
    var seen: [Int] = []
    for await state in states { seen.append(state.count) }
    #expect(seen == [0, 1, 2])
    #expect(store.isStopped)
    observation.cancel()
  }

  @Test(
    "G9 a store stopped by a reader of its state while it tells its readers: its sequences, and its scoped stores', end with that state"
  )
  func test_G9_stoppedByAReaderOfTheNewState() async {
    let store = Store(initial: Counter.State(), reduce: Counter.reduce)
    let child = store.scope(state: \.count, event: { (event: Counter.Event) in event })
    let states = store.states
    let childStates = child.states
    withObservationTracking {
      _ = store.count
    } onChange: {
      MainActor.assumeIsolated { store.stop() }
    }
    store.send(.increment)
    store.send(.increment)  // after the stop: dropped
    #expect(store.isStopped)
    #expect(child.isStopped)
    #expect(store.count == 1)
    var seen: [Int] = []
    for await state in states { seen.append(state.count) }
    #expect(seen == [0, 1])
    var childSeen: [Int] = []
    for await count in childStates { childSeen.append(count) }
    #expect(childSeen == [0, 1])
  }

  @Test(
    "G9 sends from the store's readers while it takes its last state and while it stops are dropped: the sequence ends with the last state"
  )
  func test_G9_sendsFromReadersDuringTheStop() async {
    let executor = ManualTaskExecutor()
    let stopper = SystemBox()
    let system = System(
      initial: Counter.State(), reduce: Counter.reduce,
      feedbacks: [
        Feedback.query({ $0.count == 2 ? true : nil }) { _ in
          .run { _ in stopper.system?.stop() }
        },
        Feedback.observer({
          { state in
            if state.count == 2 { onThreadAndJoin { executor.runUntilIdle() } }
          }
        }),
      ],
      isolation: .mainActor, environment: SystemEnvironment(effectExecutor: executor))
    stopper.system = system
    let store = Store(system)
    let states = store.states
    store.send(.increment)
    // A view that answers the last state, and one that answers the stop,
    // each with a send.
    withObservationTracking {
      _ = store.count
    } onChange: {
      MainActor.assumeIsolated { store.send(.increment) }
    }
    withObservationTracking {
      _ = store.isStopped
    } onChange: {
      MainActor.assumeIsolated { store.send(.increment) }
    }
    store.send(.increment)
    var seen: [Int] = []
    for await state in states { seen.append(state.count) }
    #expect(seen == [0, 1, 2])
    #expect(store.count == 2)
    #expect(system.state.count == 2)
    #expect(store.isStopped)
  }

  @Test(
    "G9 a system stopped from inside its own pass (a feedback's query): the store, like every observer, never sees that state"
  )
  func test_G9_stoppedFromInsideThePass() async {
    let stopper = SystemBox()
    let system = System(
      initial: Counter.State(), reduce: Counter.reduce,
      feedbacks: [
        Feedback.query({ state -> Bool? in
          if state.count == 2 { stopper.system?.stop() }
          return nil
        }) { _ in .run { _ in } }
      ],
      isolation: .mainActor)
    stopper.system = system
    let store = Store(system)
    let states = store.states
    store.send(.increment)
    store.send(.increment)
    #expect(system.isStopped)
    #expect(system.state.count == 2)
    #expect(store.count == 1)
    var seen: [Int] = []
    for await state in states { seen.append(state.count) }
    #expect(seen == [0, 1])
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

/// Runs `body` on a thread of its own and waits for it: a stop made there
/// comes from another thread than the loop's, at a point the test chooses.
func onThreadAndJoin(_ body: @escaping @Sendable () -> Void) {
  let done = DispatchSemaphore(value: 0)
  let thread = Thread {
    body()
    done.signal()
  }
  thread.start()
  done.wait()
}

/// Holds a system for one of its own effects, which stops it.
final class SystemBox: @unchecked Sendable {
  // Sendable: written once on the main actor before the system sees any
  // event that starts the effect, read by the effect afterwards.
  var system: System<Counter.State, Counter.Event>?
}
