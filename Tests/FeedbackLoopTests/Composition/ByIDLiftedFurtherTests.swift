import FeedbackLoopScenarios
import FeedbackLoopTesting
import Testing

@testable import FeedbackLoop

/// A feature that holds children by id, lifted further (into a stored
/// property, then an optional one): its by-id feedback keeps the composed
/// path (one offset, the optional's check) instead of the recipe's
/// closures, and does what the recipe's does. The computed property takes
/// the recipe's path, so the two are run side by side and compared.
@Suite(.runsLeftoverJobs) struct ByIDLiftedFurtherTests {
  typealias Counter = ComposedPathTests.Counter

  struct Inner: Sendable, Equatable {
    var padding = "the children are not at offset 0"
    var items: TrackedDictionary<Int, Counter.State> = [:]
    /// The same children behind a computed property: the recipe's path.
    var computedItems: TrackedDictionary<Int, Counter.State> {
      get { items }
      set { items = newValue }
    }
  }

  enum InnerEvent: Sendable, Equatable {
    case add(Int)
    case remove(Int)
    /// The children replaced wholesale: the ids kept keep their state.
    case replace([Int])
    case item(Int, Counter.Event)
  }

  struct Middle: Sendable, Equatable {
    var count = 0
    var inner = Inner()
  }

  struct Outer: Sendable, Equatable {
    var before = 1
    var middle: Middle? = nil
    /// The same middle behind a computed property: no offset.
    var computedMiddle: Middle? {
      get { middle }
      set { middle = newValue }
    }
  }

  enum OuterEvent: Sendable, Equatable {
    case open
    case close
    case middle(InnerEvent)
  }

  struct ToItem: ChildEventCase {
    func embed(_ id: Int, _ event: Counter.Event) -> InnerEvent { .item(id, event) }
    func extract(_ event: InnerEvent) -> (Int, Counter.Event)? {
      if case .item(let id, let event) = event { (id, event) } else { nil }
    }
  }

  struct Same: EventCase {
    func embed(_ event: InnerEvent) -> InnerEvent { event }
    func extract(_ event: InnerEvent) -> InnerEvent? { event }
  }

  struct ToMiddle: EventCase {
    func embed(_ event: InnerEvent) -> OuterEvent { .middle(event) }
    func extract(_ event: OuterEvent) -> InnerEvent? {
      if case .middle(let event) = event { event } else { nil }
    }
  }

  static func inner(gate: Gate) -> Feature<Inner, InnerEvent> {
    let own = Reducer<Inner, InnerEvent> { state, event in
      switch event {
      case .add(let id): state.items[id] = Counter.State()
      case .remove(let id): state.items[id] = nil
      case .replace(let kept):
        state.items = TrackedDictionary(
          Dictionary(uniqueKeysWithValues: kept.map { ($0, state.items[$0] ?? Counter.State()) }))
      case .item: break
      }
    }
    return .combine(
      name: "inner", Feature(name: "inner", reducer: own),
      Counter.feature(gate: gate).lifted(children: \Inner.items, event: ToItem()).feature)
  }

  static func feature(gate: Gate, computed: Bool) -> Feature<Outer, OuterEvent> {
    let middle = inner(gate: gate).lifted(state: \Middle.inner, event: Same()).feature
    let own = Feature<Outer, OuterEvent>(
      name: "outer",
      reducer: Reducer { state, event in
        switch event {
        case .open: state.middle = Middle()
        case .close: state.middle = nil
        case .middle: break
        }
      })
    return .combine(
      name: "outer", own,
      computed
        ? middle.lifted(optional: \Outer.computedMiddle, event: ToMiddle()).feature
        : middle.lifted(optional: \Outer.middle, event: ToMiddle()).feature)
  }

  @Test("a by-id feedback lifted at stored properties keeps the composed path; through a computed one, the recipe's")
  func liftedFurtherKeepsThePath() {
    let gate = Gate()
    let stored = Self.feature(gate: gate, computed: false).feedbacks
    let computed = Self.feature(gate: gate, computed: true).feedbacks
    #expect(stored.count == 1 && computed.count == 1)
    #expect(stored.allSatisfy { $0.byID != nil }, "a by-id feedback lifted further fell back to the recipe")
    #expect(computed.allSatisfy { $0.byID == nil })
    #expect(stored.map(\.name) == computed.map(\.name))
    #expect(stored.allSatisfy { $0.name.hasSuffix("counter[id]/work") })
  }

  /// What a run of `events` starts, cancels and finishes, and its last state.
  static func run(
    computed: Bool, stopFirst: Bool = false, _ events: [OuterEvent]
  ) -> (started: [String], cancelled: [String], finished: Int, state: Outer, running: Int) {
    let harness = Harness()
    let gate = Gate()
    let activity = ActivityLog<Outer, OuterEvent>()
    let system = System(
      initial: Outer(), feature: feature(gate: gate, computed: computed), environment: harness.environment,
      monitor: activity.monitor)
    for event in events {
      system.send(event)
      harness.settle()
    }
    let running = system.runningTaskCount
    if stopFirst {
      // Stopped with effects running: every one is cancelled (the gate's
      // waits end when it opens), and none is left after.
      system.stop()
      harness.settle()
    }
    gate.open()
    harness.settle()
    if stopFirst { #expect(system.runningTaskCount == 0) }
    defer { system.stop() }
    return (
      activity.started.compactMap(\.trigger), activity.cancelled.compactMap(\.trigger), activity.finished.count,
      system.state, running
    )
  }

  @Test(
    "G4 G6 lifted further: a child's effect starts, restarts and goes with the child; the optional's going cancels every child's in the order they appeared; the same as the recipe's path"
  )
  func sameAsTheRecipe() {
    let events: [OuterEvent] = [
      .middle(.add(1)),  // no middle yet: discarded
      .open, .middle(.add(2)), .middle(.add(1)),
      .middle(.item(1, .set(3))), .middle(.item(2, .set(5))), .middle(.item(1, .set(7))),
      .middle(.item(2, .set(4))),  // an effect that does nothing cancels 2's
      .middle(.item(2, .set(9))),
      .close,  // both go: 2 appeared first
      .open, .middle(.add(1)), .middle(.item(1, .set(11))), .middle(.remove(1)),
      .middle(.add(1)), .middle(.item(1, .set(13))),
    ]
    let stored = Self.run(computed: false, events)
    let computed = Self.run(computed: true, events)
    #expect(stored.started == ["1", "2", "1", "2", "2", "1", "1"])
    #expect(stored.cancelled == ["1", "2", "2", "1", "1"])
    #expect(stored.state.middle?.inner.items[1] == Counter.State(value: 13))
    #expect(stored.started == computed.started)
    #expect(stored.cancelled == computed.cancelled)
    #expect(stored.finished == computed.finished)
    #expect(stored.state == computed.state)
    #expect(stored.running == computed.running)
  }

  @Test(
    "G4 G6 lifted further: children replaced wholesale are read whole (gone ones cancelled in the order they appeared, new ones started); a stop cancels the rest; the same as the recipe's path"
  )
  func replacedAndStopped() {
    let events: [OuterEvent] = [
      .open, .middle(.add(3)), .middle(.add(1)), .middle(.add(2)),
      .middle(.item(1, .set(1))), .middle(.item(2, .set(3))), .middle(.item(3, .set(5))),
      .middle(.replace([2, 4])),  // 3 and 1 go, in that order; 2 keeps its effect
      .middle(.item(4, .set(7))),
    ]
    for stopFirst in [false, true] {
      let stored = Self.run(computed: false, stopFirst: stopFirst, events)
      let computed = Self.run(computed: true, stopFirst: stopFirst, events)
      #expect(stored.started == ["1", "2", "3", "4"])
      #expect(stored.cancelled.prefix(2) == ["3", "1"])
      #expect(stored.started == computed.started)
      // The children that go with the optional go in the order they
      // appeared; a stop cancels the table's effects in its own order.
      #expect(stored.cancelled.prefix(2) == computed.cancelled.prefix(2))
      #expect(stored.cancelled.sorted() == computed.cancelled.sorted())
      #expect(stored.finished == computed.finished)
      #expect(stored.state == computed.state)
    }
  }

  /// A counter whose predicate feedback fires at every odd value.
  static let odd = Feature<Counter.State, Counter.Event>(
    name: "odd", reducer: Reducer { state, event in if case .set(let value) = event { state.value = value } },
    feedbacks: [
      .predicate({ $0.value % 2 == 1 }, whenFalse: .cancelRunning, name: "odd") { _ in
        .after(.seconds(100), send: .set(0))
      }
    ])

  @Test("a liftable predicate feedback has a path, and keeps it lifted by id and lifted further")
  func predicateHasAPath() {
    #expect(Self.odd.feedbacks.allSatisfy { $0.path != nil })
    let byID = Self.odd.lifted(children: \Inner.items, event: ToItem())
    #expect(byID.feedbacks.allSatisfy { $0.byID != nil })
    let further = byID.lifted(state: \Middle.inner, event: Same())
    #expect(further.feedbacks.allSatisfy { $0.byID != nil })
  }

  @Test(
    "G5 a predicate feedback's effect is described by the state that triggered it, alone and by id by the child's id")
  func predicateTriggers() {
    let harness = Harness()
    let activity = ActivityLog<Counter.State, Counter.Event>()
    let alone = System(
      initial: Counter.State(), feature: Self.odd, environment: harness.environment, monitor: activity.monitor)
    for value in [1, 2, 3, 3] { alone.send(.set(value)) }
    harness.settle()
    #expect(activity.started.compactMap(\.trigger) == ["State(value: 1)", "State(value: 3)", "State(value: 3)"])
    alone.stop()

    // By id, through the path and through the recipe (a computed
    // property): the same effects, named by the child's id. The monitor
    // keeps every state, so each write copies the children and both read
    // them whole, triggering every child whose predicate holds.
    func byIDTriggers(computed: Bool) -> [String] {
      let activity = ActivityLog<Inner, InnerEvent>()
      let own = Feature<Inner, InnerEvent>(
        name: "own",
        reducer: Reducer { state, event in
          switch event {
          case .add(let id): state.items[id] = Counter.State()
          case .remove(let id): state.items[id] = nil
          case .replace, .item: break
          }
        })
      let lifted =
        computed
        ? Self.odd.lifted(children: \Inner.computedItems, event: ToItem()).feature
        : Self.odd.lifted(children: \Inner.items, event: ToItem()).feature
      let system = System(
        initial: Inner(), feature: .combine(name: "inner", own, lifted), environment: harness.environment,
        monitor: activity.monitor)
      let events: [InnerEvent] = [
        .add(1), .add(2), .item(1, .set(1)), .item(2, .set(2)), .item(2, .set(5)), .item(1, .set(4)), .remove(2),
      ]
      for event in events { system.send(event) }
      harness.settle()
      defer { system.stop() }
      return activity.started.compactMap(\.trigger) + ["cancelled:"] + activity.cancelled.compactMap(\.trigger)
    }
    // Read whole, the children are visited in their dictionary's order,
    // which differs between two dictionaries of the same keys (Swift seeds
    // each one's hashing): the same triggers, in an order of their own.
    let path = byIDTriggers(computed: false)
    #expect(path.starts(with: ["1"]) && path.contains("2"))
    #expect(path.sorted() == byIDTriggers(computed: true).sorted())
  }
}
