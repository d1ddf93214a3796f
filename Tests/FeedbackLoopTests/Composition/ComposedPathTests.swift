import FeedbackLoop
import FeedbackLoopScenarios
import FeedbackLoopTesting
import Testing

/// The lifts composed into one path (the children-by-id benchmark in BENCHMARKS.md and the nested-lifts benchmark): a child
/// by id changed in place with one look-up and read by the feedback where
/// the write left it; reducers lifted at stored properties, again and
/// again, composed into one reach. These systems run without a monitor on
/// purpose: a monitor keeps every state, so every write copies the
/// children and the feedback never takes the in-place path.
@Suite(.runsLeftoverJobs) struct ComposedPathTests {
  struct State: Sendable, Equatable {
    var padding = "the children are not at offset 0"
    var items: TrackedDictionary<Int, Loader.State> = [:]
  }

  enum Event: Sendable, Equatable {
    case add(Int)
    case item(Int, Loader.Event)
  }

  static let toItem = ChildEventPath<Event, Int, Loader.Event>(
    embed: Event.item, extract: { if case .item(let id, let event) = $0 { (id, event) } else { nil } })

  /// After the lifted reducer: `.load(n)` with n < 0 removes the child it
  /// just changed, n >= 100 writes the next child too, both in the same
  /// event, so that the feedback sees more than the one change in place.
  static let own = Reducer<State, Event> { state, event in
    switch event {
    case .add(let id): state.items[id] = Loader.State()
    case .item(let id, .load(let request)) where request < 0: state.items[id] = nil
    case .item(let id, .load(let request)) where request >= 100: state.items[id + 1]?.request = request + 1
    case .item: break
    }
  }

  /// The parent's own reducer after the lifted one, or before it (`ownFirst`):
  /// then the change in place is the last of two.
  static func feature(gate: Gate, ownFirst: Bool = false) -> Feature<State, Event> {
    let child = Loader.feature(gate: gate).lifted(children: \State.items, event: toItem).feature
    let parent = Feature<State, Event>(name: "app", reducer: own)
    return ownFirst ? .combine(name: "app", parent, child) : .combine(name: "app", child, parent)
  }

  struct Probe {
    let harness = Harness()
    let gate = Gate()
    let system: System<State, Event>

    init(ownFirst: Bool = false) {
      system = System(
        initial: State(), feature: ComposedPathTests.feature(gate: gate, ownFirst: ownFirst),
        environment: harness.environment)
    }

    func send(_ events: Event...) {
      for event in events { system.send(event) }
      harness.settle()
    }

    func finish() -> State {
      gate.open()
      harness.settle()
      return system.state
    }
  }

  @Test(
    "G4 G6 a child changed in place restarts its effect only when its query changes; a replaced effect's late event is dropped"
  )
  func test_G4_inPlaceChangesRestartOnQueryChange() {
    let probe = Probe()
    probe.send(.add(1), .add(2), .item(1, .load(10)))
    #expect(probe.system.runningTaskCount == 1)
    probe.send(.item(1, .load(10)), .item(1, .load(10)))
    #expect(probe.system.runningTaskCount == 1)
    probe.send(.item(2, .load(20)))
    #expect(probe.system.runningTaskCount == 2)
    probe.send(.item(1, .load(11)))
    // The replaced effect waits on the gate whatever its cancellation: three
    // tasks until it opens; its late event must not be reduced.
    #expect(probe.system.runningTaskCount == 3)
    let state = probe.finish()
    #expect(state.items[1]?.loaded == [11])
    #expect(state.items[2]?.loaded == [20])
    #expect(probe.system.runningTaskCount == 0)
  }

  @Test(
    "G4 a child changed in place, then removed in the same event: its effect is cancelled, none starts for the change")
  func test_G4_changedThenRemovedInOneEvent() {
    let probe = Probe()
    probe.send(.add(1), .add(2), .item(1, .load(5)), .item(2, .load(6)))
    #expect(probe.system.runningTaskCount == 2)
    probe.send(.item(1, .load(-1)))
    #expect(probe.system.state.items[1] == nil)
    // A child 1 again, before the old effect's late event comes: were that
    // effect not cancelled, its `.loaded(5)` would reach the new child.
    probe.send(.add(1))
    let state = probe.finish()
    #expect(state.items[1] == Loader.State())
    #expect(state.items[2]?.loaded == [6])
    #expect(probe.system.runningTaskCount == 0)
  }

  @Test(
    "G4 two children written in one event, one in place and one through the subscript, in either order: both feedbacks see their change",
    arguments: [false, true])
  func test_G4_twoWritesInOneEvent(ownFirst: Bool) {
    let probe = Probe(ownFirst: ownFirst)
    probe.send(.add(1), .add(2), .item(1, .load(100)))
    #expect(probe.system.state.items[2]?.request == 101)
    #expect(probe.system.runningTaskCount == 2)
    let state = probe.finish()
    #expect(state.items[1]?.loaded == [100])
    #expect(state.items[2]?.loaded == [101])
  }

  @Test(
    "G4 a copy of the state kept outside the loop: the change in place does not reach it, and the feedback still follows"
  )
  func test_G4_copyKeptOutside() {
    let probe = Probe()
    probe.send(.add(1), .item(1, .load(1)))
    let kept = probe.system.state
    probe.send(.item(1, .load(2)))
    #expect(kept.items[1]?.request == 1)
    #expect(probe.system.state.items[1]?.request == 2)
    let state = probe.finish()
    #expect(state.items[1]?.loaded == [2])
    #expect(kept.items[1]?.loaded == [])
  }

  @Test("a lifted reducer by id changes only the child it names, even when the children are shared with a copy")
  func inPlaceChangeCopiesSharedChildren() {
    let reducer = Reducer.combine(Self.own, Loader.reducer.lifted(children: \State.items, event: Self.toItem))
    var state = State()
    for id in 0..<40 { reducer.reduce(&state, .add(id)) }
    let shared = state
    let alsoShared = state.items.dictionary
    reducer.reduce(&state, .item(7, .load(3)))
    reducer.reduce(&state, .item(7, .load(4)))
    #expect(state.items[7]?.request == 4)
    #expect(shared.items[7]?.request == nil)
    #expect(alsoShared[7]?.request == nil)
    #expect(state.items.count == 40)
    #expect(state.items.values.filter { $0.request != nil }.count == 1)
  }
}

/// Reducers lifted at stored properties, level after level, run as one
/// reach: the same results as the lifts one by one through key paths
/// without offsets (computed properties), including the discards of an
/// optional child deep inside.
extension ComposedPathTests {
  struct Leaf: Sendable, Equatable {
    var count = 0
    var loader: Loader.State?
  }

  enum LeafEvent: Sendable, Equatable {
    case increment
    case open
    case loader(Loader.Event)
  }

  struct Middle: Sendable, Equatable {
    var padding = "padding"
    var flag = true
    var leaf = Leaf()
    var computedLeaf: Leaf {
      get { leaf }
      set { leaf = newValue }
    }
  }

  enum MiddleEvent: Sendable, Equatable {
    case leaf(LeafEvent)
    case own
  }

  struct Top: Sendable, Equatable {
    var name = "top"
    var middle = Middle()
    var computedMiddle: Middle {
      get { middle }
      set { middle = newValue }
    }
  }

  enum TopEvent: Sendable, Equatable {
    case middle(MiddleEvent)
    case other
  }

  static let leafReducer = Reducer.combine(
    Reducer<Leaf, LeafEvent> { state, event in
      switch event {
      case .increment: state.count += 1
      case .open: state.loader = Loader.State()
      case .loader: break
      }
    },
    Loader.reducer.lifted(
      optional: \Leaf.loader,
      event: EventPath(embed: LeafEvent.loader, extract: { if case .loader(let event) = $0 { event } else { nil } })))
  static let toLeaf = EventPath<MiddleEvent, LeafEvent>(
    embed: MiddleEvent.leaf, extract: { if case .leaf(let event) = $0 { event } else { nil } })
  static let toMiddle = EventPath<TopEvent, MiddleEvent>(
    embed: TopEvent.middle, extract: { if case .middle(let event) = $0 { event } else { nil } })

  static func topReducer(computed: Bool) -> Reducer<Top, TopEvent> {
    let middle = leafReducer.lifted(state: computed ? \Middle.computedLeaf : \Middle.leaf, event: toLeaf)
    return middle.lifted(state: computed ? \Top.computedMiddle : \Top.middle, event: toMiddle)
  }

  @Test(
    "a reducer lifted twice at stored properties reaches its child at the summed offset, as through computed ones",
    arguments: [false, true])
  func composedReach(computed: Bool) {
    let reducer = Self.topReducer(computed: computed)
    var state = Top()
    reducer.reduce(&state, .middle(.leaf(.increment)))
    reducer.reduce(&state, .middle(.leaf(.increment)))
    reducer.reduce(&state, .other)
    reducer.reduce(&state, .middle(.own))
    #expect(state.middle.leaf.count == 2)
    #expect(state.name == "top")
    #expect(state.middle.padding == "padding")
    let discard = reducer.reduceReportingDiscards(&state, .middle(.leaf(.loader(.load(1)))))
    #expect(discard?.contains("is nil") == true)
    #expect(reducer.reduceReportingDiscards(&state, .middle(.leaf(.open))) == nil)
    #expect(reducer.reduceReportingDiscards(&state, .middle(.leaf(.loader(.load(3))))) == nil)
    #expect(state.middle.leaf.loader?.request == 3)
    #expect(reducer.reduceReportingDiscards(&state, .other) == nil)
  }

  @Test(
    "a reach composed three levels deep, lifted again as children by id and combined, keeps each level's own reducer out"
  )
  func composedReachInsideChildrenByID() {
    struct Outer: Sendable, Equatable { var tops: TrackedDictionary<String, Top> = ["a": Top(), "b": Top()] }
    enum OuterEvent: Sendable { case top(String, TopEvent) }
    let toTop = ChildEventPath<OuterEvent, String, TopEvent>(
      embed: OuterEvent.top, extract: { if case .top(let id, let event) = $0 { (id, event) } else { nil } })
    let reducer = Self.topReducer(computed: false).lifted(children: \Outer.tops, event: toTop)
    var state = Outer()
    reducer.reduce(&state, .top("a", .middle(.leaf(.increment))))
    reducer.reduce(&state, .top("b", .middle(.leaf(.open))))
    reducer.reduce(&state, .top("b", .middle(.leaf(.loader(.load(9))))))
    #expect(state.tops["a"]?.middle.leaf.count == 1)
    #expect(state.tops["a"]?.middle.leaf.loader == nil)
    #expect(state.tops["b"]?.middle.leaf.loader?.request == 9)
    #expect(reducer.reduceReportingDiscards(&state, .top("c", .other))?.contains("no child") == true)
  }
}

/// A child by id whose query's effect sometimes does nothing: the by-id
/// feedback keeps no entry in its table for such an effect, yet numbers and
/// reports it as the table does (started and finished at once), and a later
/// real effect is still cancelled when the child goes.
extension ComposedPathTests {
  enum Counter {
    struct State: Sendable, Equatable { var value = 0 }
    enum Event: Sendable, Equatable { case set(Int) }

    /// Even values: an effect that does nothing; odd ones: one that waits.
    static func feature(gate: Gate) -> Feature<State, Event> {
      Feature(
        name: "counter", reducer: Reducer { state, event in if case .set(let value) = event { state.value = value } },
        feedbacks: [
          .query({ $0.value == 0 ? nil : $0.value }, name: "work") { value in
            value.isMultiple(of: 2) ? .none : .run { _ in await gate.wait() }
          }
        ])
    }
  }

  struct Counters: Sendable, Equatable { var items: TrackedDictionary<Int, Counter.State> = [:] }

  enum CountersEvent: Sendable, Equatable {
    case add(Int)
    case remove(Int)
    case item(Int, Counter.Event)
  }

  static func counters(gate: Gate) -> Feature<Counters, CountersEvent> {
    let own = Reducer<Counters, CountersEvent> { state, event in
      switch event {
      case .add(let id): state.items[id] = Counter.State()
      case .remove(let id): state.items[id] = nil
      case .item: break
      }
    }
    let toItem = ChildEventPath<CountersEvent, Int, Counter.Event>(
      embed: CountersEvent.item, extract: { if case .item(let id, let event) = $0 { (id, event) } else { nil } })
    return .combine(
      name: "app", Feature(name: "app", reducer: own),
      Counter.feature(gate: gate).lifted(children: \Counters.items, event: toItem).feature)
  }

  @Test(
    "G4 G6 a child's effect that does nothing is reported started and finished, cancels the running one, and leaves nothing to cancel"
  )
  func test_G4_effectThatDoesNothingByID() {
    let harness = Harness()
    let gate = Gate()
    let activity = ActivityLog<Counters, CountersEvent>()
    let system = System(
      initial: Counters(), feature: Self.counters(gate: gate), environment: harness.environment,
      monitor: activity.monitor)
    func send(_ events: CountersEvent...) {
      for event in events { system.send(event) }
      harness.settle()
    }
    send(.add(1), .add(2), .item(1, .set(2)))
    #expect(activity.started.map(\.number) == [1])
    #expect(activity.finished.map(\.number) == [1])
    send(.item(1, .set(3)))
    #expect(activity.started.map(\.number) == [1, 2])
    #expect(activity.cancelled.isEmpty)
    send(.item(1, .set(4)))
    #expect(activity.cancelled.map(\.number) == [2])
    #expect(activity.started.map(\.number) == [1, 2, 3])
    #expect(activity.finished.map(\.number) == [1, 3])
    send(.item(1, .set(5)), .item(2, .set(6)))
    #expect(activity.started.map(\.number) == [1, 2, 3, 4, 5])
    #expect(activity.cancelled.map(\.number) == [2])
    send(.remove(1), .remove(2))
    #expect(activity.cancelled.map(\.number) == [2, 4])
    #expect(activity.started.allSatisfy { $0.feedback.name == "counter[id]/work" })
    #expect(activity.started.compactMap(\.trigger) == ["1", "1", "1", "1", "2"])
    gate.open()
    harness.settle()
    #expect(system.runningTaskCount == 0)
    #expect(activity.finished.map(\.number) == [1, 3, 5])
  }

  @Test("G4 the same, unmonitored (each child changed in place): the running effect goes with the child")
  func test_G4_effectThatDoesNothingByIDInPlace() {
    let harness = Harness()
    let gate = Gate()
    let system = System(initial: Counters(), feature: Self.counters(gate: gate), environment: harness.environment)
    for event in [CountersEvent.add(1), .item(1, .set(2)), .item(1, .set(3))] { system.send(event) }
    harness.settle()
    #expect(system.runningTaskCount == 1)
    system.send(.item(1, .set(4)))
    system.send(.item(1, .set(6)))
    system.send(.item(1, .set(7)))
    harness.settle()
    #expect(system.runningTaskCount == 2)
    system.send(.remove(1))
    gate.open()
    harness.settle()
    #expect(system.runningTaskCount == 0)
    #expect(system.state.items.isEmpty)
  }
}
