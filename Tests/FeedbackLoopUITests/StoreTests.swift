import FeedbackLoop
import FeedbackLoopTesting
import FeedbackLoopUI
import Testing

@MainActor
@Suite("Store: a main-actor system held for a view", .runsLeftoverJobs, .timeLimit(.minutes(1)))
struct StoreTests {
  @Test("G10 send on the main actor has reduced, and the store holds the new state, before it returns")
  func test_G10_sendIsSynchronous() {
    let store = Store(initial: Counter.State(), reduce: Counter.reduce)
    store.send(.increment)
    #expect(store.count == 1)
    #expect(store.state.count == 1)
    store.send(.stepChanged(5))
    store.send(.increment)
    #expect(store.count == 6)
    store.send(contentsOf: [.decrement, .decrement])
    #expect(store.count == -4)
  }

  @Test("G1 the initial state has reached every feedback, and answers sent at once are reduced, when init returns")
  func test_G1_initialStateBeforeInitReturns() {
    let store = Store(
      initial: 0,
      reduceReturning: { count, _ in count + 1 },
      feedbacks: [Feedback<Int, Void>.query({ $0 < 3 ? $0 : nil }) { _ in .send(()) }])
    #expect(store.state == 3)
  }

  @Test("G11 effects run on the injected clock and executor; their queued events are reduced deterministically")
  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  func test_G11_effectsOnTestClock() {
    let executor = ManualTaskExecutor()
    let clock = TestClock(executor: executor)
    let store = Store(
      initial: Counter.State(), reduce: Counter.reduce, feedbacks: Counter.feedbacks,
      environment: SystemEnvironment(clock: clock, effectExecutor: executor))
    store.send(.timerToggled(true))
    executor.runUntilIdle()
    #expect(clock.sleeperCount == 1)

    clock.advance(by: .seconds(1))  // the tick is sent, and waits for its hop
    #expect(store.count == 0)
    store.processQueuedEvents()
    #expect(store.count == 1)
    executor.runUntilIdle()  // the next second starts for the new count
    clock.advance(by: .seconds(1))
    store.processQueuedEvents()
    #expect(store.count == 2)

    store.send(.timerToggled(false))  // the query becomes nil: the timer is cancelled
    executor.runUntilIdle()
    #expect(clock.sleeperCount == 0)
    clock.advance(by: .seconds(5))
    store.processQueuedEvents()
    #expect(store.count == 2)
  }

  @Test("an effect's event that waits for its hop still reaches the store by itself")
  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  func effectEventsHopByThemselves() async {
    let executor = ManualTaskExecutor()
    let clock = TestClock(executor: executor)
    let store = Store(
      initial: Counter.State(), reduce: Counter.reduce, feedbacks: Counter.feedbacks,
      environment: SystemEnvironment(clock: clock, effectExecutor: executor))
    store.send(.timerToggled(true))
    executor.runUntilIdle()
    clock.advance(by: .seconds(1))
    await store.waitUntil { $0.count == 1 }
    #expect(store.count == 1)
  }

  @Test("states yields the current state, then each state the store takes; an equal state is not repeated")
  func statesSequence() async {
    let store = Store(initial: Counter.State(), reduce: Counter.reduce)
    store.send(.increment)
    let states = store.states
    store.send(.increment)
    store.send(.stepChanged(1))  // leaves the state equal
    store.send(.stepChanged(2))
    store.stop()
    var seen: [Counter.State] = []
    for await state in states { seen.append(state) }
    #expect(seen.map(\.count) == [1, 2, 2])
    #expect(seen.map(\.step) == [1, 1, 2])
  }

  @Test("send(contentsOf:) sends every event of an asynchronous sequence, in order")
  func sendsAnAsyncSequence() async {
    let store = Store(initial: Counter.State(), reduce: Counter.reduce)
    let (events, continuation) = AsyncStream<Counter.Event>.makeStream()
    continuation.yield(.increment)
    continuation.yield(.stepChanged(10))
    continuation.yield(.increment)
    continuation.finish()
    await store.send(contentsOf: events)
    #expect(store.count == 11)
  }

  @Test("G9 stop: the store says so, its sequences finish, and later events are dropped")
  func test_G9_stop() async {
    let activity = Recorder<String>()
    let store = Store(
      initial: Counter.State(), reduce: Counter.reduce,
      monitor: SystemMonitor { activity.append($0.name) })
    let stopped = Tracker { _ = store.isStopped }
    let states = store.states
    store.stop()
    #expect(store.isStopped)
    #expect(stopped.count == 1)
    store.send(.increment)
    #expect(store.count == 0)
    var seen = 0
    for await _ in states { seen += 1 }
    #expect(seen == 1)
    #expect(activity.entries == ["started", "stopped", "discarded"])
  }

  @Test("G9 releasing the store stops its system: no retain cycle through the observation")
  func test_G9_releaseStopsTheSystem() async {
    let activity = Recorder<Bool>()
    weak var weakStore: Store<Counter.State, Counter.Event>?
    var states: StateSequence<Counter.State>?
    do {
      let store = Store(
        initial: Counter.State(), reduce: Counter.reduce, feedbacks: Counter.feedbacks,
        monitor: SystemMonitor { activity.append($0.isStopped) })
      store.send(.increment)
      states = store.states
      weakStore = store
    }
    #expect(weakStore == nil)
    #expect(activity.entries.last == true)
    var seen: [Int] = []
    for await state in states! { seen.append(state.count) }
    #expect(seen == [1])
  }
}

extension SystemActivity {
  var isStopped: Bool {
    if case .stopped = self { return true }
    return false
  }

  /// The activities the tests look for, by name; the others as "other".
  var name: String {
    switch self {
    case .started: "started"
    case .eventDiscarded: "discarded"
    case .stopped: "stopped"
    default: "other"
    }
  }

}

@MainActor
@Suite("Store(_:): a system built elsewhere", .runsLeftoverJobs)
struct StoreOfSystemTests {
  @Test("a main-actor system built elsewhere is held and followed by a store")
  func holdsAMainActorSystem() {
    let system = System(initial: Counter.State(), reduce: Counter.reduce, isolation: .mainActor)
    system.send(.increment)
    let store = Store(system)
    #expect(store.count == 1)
    store.send(.increment)
    #expect(system.state.count == 2)
    #expect(store.count == 2)
    system.send(.increment)  // a send made on the main actor elsewhere reaches the store too
    #expect(store.count == 3)
  }
}
