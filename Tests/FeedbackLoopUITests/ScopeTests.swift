import FeedbackLoop
import FeedbackLoopTesting
import FeedbackLoopUI
import Testing

@MainActor
@Suite("Scoping: a child store for a part of the state and a subset of the events", .runsLeftoverJobs)
struct ScopeTests {
  enum Settings {
    struct State: Equatable, Sendable {
      var counter = Counter.State()
      var title = "Settings"
      var selected: Int?
    }

    enum Event: Equatable, Sendable {
      case counter(Counter.Event)
      case rename(String)
      case select(Int?)
      case detail(Detail)
    }

    enum Detail: Equatable, Sendable { case bump }

    static func reduce(_ state: inout State, _ event: Event) {
      switch event {
      case .counter(let event): Counter.reduce(&state.counter, event)
      case .rename(let title): state.title = title
      case .select(let item): state.selected = item
      case .detail(.bump): state.selected = state.selected.map { $0 + 1 }
      }
    }
  }

  func makeStore() -> Store<Settings.State, Settings.Event> {
    Store(initial: Settings.State(), reduce: Settings.reduce)
  }

  @Test("a child reads its part and sends its events, mapped into the parent's")
  func childReadsAndSends() {
    let store = makeStore()
    let counter = store.scope(state: \.counter, event: Settings.Event.counter)
    counter.send(.increment)
    #expect(counter.count == 1)
    #expect(store.state.counter.count == 1)
    store.send(.counter(.stepChanged(3)))
    #expect(counter.step == 3)
  }

  @Test("a child's readers are notified only when its part changes")
  func childNotifiesForItsPartOnly() {
    let store = makeStore()
    let counter = store.scope(state: \.counter, event: Settings.Event.counter)
    let tracker = Tracker { _ = counter.state }
    store.send(.rename("Preferences"))
    #expect(tracker.count == 0)
    counter.send(.increment)
    #expect(tracker.count == 1)
  }

  @Test("a child scoped from a child follows the root")
  func grandchild() {
    let store = makeStore()
    let counter = store.scope(state: \.counter, event: Settings.Event.counter)
    let step = counter.scope(state: \.step, event: Counter.Event.stepChanged)
    step.send(4)
    #expect(store.state.counter.step == 4)
    store.send(.counter(.stepChanged(7)))
    #expect(step.state == 7)
  }

  @Test("scoping by unwrapping: nil while the part is absent; the child keeps its last part through states without one")
  func unwrapping() {
    let store = makeStore()
    #expect(store.scope(unwrapping: \.selected, event: Settings.Event.detail) == nil)
    store.send(.select(1))
    let detail = store.scope(unwrapping: \.selected, event: Settings.Event.detail)
    #expect(detail?.state == 1)
    detail?.send(.bump)
    #expect(detail?.state == 2)
    #expect(store.state.selected == 2)
    store.send(.select(nil))
    #expect(detail?.state == 2)
  }

  @Test("G9 a child keeps the system running after the parent's variable is gone; releasing both stops it")
  func childKeepsTheSystemAlive() async {
    let activity = Recorder<String>()
    var child: Store<Counter.State, Counter.Event>?
    do {
      let store = Store(
        initial: Settings.State(), reduce: Settings.reduce,
        monitor: SystemMonitor { activity.append($0.name) })
      child = store.scope(state: \.counter, event: Settings.Event.counter)
    }
    child?.send(.increment)
    #expect(child?.count == 1)
    #expect(!activity.entries.contains("stopped"))
    child = nil
    #expect(activity.entries.last == "stopped")
  }

  @Test("stopping the root stops its children: they say so and their sequences finish")
  func stopReachesChildren() async {
    let store = makeStore()
    let counter = store.scope(state: \.counter, event: Settings.Event.counter)
    let states = counter.states
    counter.send(.increment)
    store.stop()
    #expect(counter.isStopped)
    var seen: [Int] = []
    for await state in states { seen.append(state.count) }
    #expect(seen == [0, 1])
  }

  @Test("a released child is dropped by its parent")
  func releasedChildIsDropped() {
    let store = makeStore()
    weak var weakChild: Store<Counter.State, Counter.Event>?
    do {
      let child = store.scope(state: \.counter, event: Settings.Event.counter)
      weakChild = child
    }
    #expect(weakChild == nil)
    store.send(.counter(.increment))
    #expect(store.state.counter.count == 1)
  }
}
