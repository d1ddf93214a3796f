import FeedbackLoop
import FeedbackLoopScenarios
import FeedbackLoopTesting
import Testing

/// A lifted query feedback runs through one path composed at build time:
/// the byte offsets of the stored properties on the way, added up, and a
/// presence check per optional. These tests put the child behind
/// properties at non-zero offsets and two optionals, and compare with the
/// same feature lifted through a computed property, which has no offset and
/// keeps the recipe's closures.
@Suite(.runsLeftoverJobs) struct LiftedPathTests {
  struct Middle: Sendable, Equatable {
    var count = 0
    var loader: Loader.State?
  }

  enum MiddleEvent: Sendable, Equatable {
    case loader(Loader.Event)
    case openLoader
    case closeLoader
  }

  struct Outer: Sendable, Equatable {
    var padding = "the child is not at offset 0"
    var flag = false
    var middle: Middle?
    var items: TrackedDictionary<Int, Loader.State> = [:]

    /// The same storage behind a computed property: a key path with no offset.
    var computedMiddle: Middle? {
      get { middle }
      set { middle = newValue }
    }
  }

  enum OuterEvent: Sendable, Equatable {
    case middle(MiddleEvent)
    case openMiddle
    case closeMiddle
    case add(Int)
    case item(Int, Loader.Event)
    case replaceItems(keeping: [Int])
  }

  static let toLoader = EventPath<MiddleEvent, Loader.Event>(
    embed: MiddleEvent.loader, extract: { if case .loader(let event) = $0 { event } else { nil } })
  static let toMiddle = EventPath<OuterEvent, MiddleEvent>(
    embed: OuterEvent.middle, extract: { if case .middle(let event) = $0 { event } else { nil } })
  static let toItem = ChildEventPath<OuterEvent, Int, Loader.Event>(
    embed: OuterEvent.item, extract: { if case .item(let id, let event) = $0 { (id, event) } else { nil } })

  static let middleOwn = Reducer<Middle, MiddleEvent> { state, event in
    switch event {
    case .openLoader: state.loader = Loader.State()
    case .closeLoader: state.loader = nil
    case .loader: state.count += 1
    }
  }

  static let outerOwn = Reducer<Outer, OuterEvent> { state, event in
    switch event {
    case .openMiddle: state.middle = Middle()
    case .closeMiddle: state.middle = nil
    case .add(let id): state.items[id] = Loader.State()
    case .replaceItems(let kept):
      state.items = TrackedDictionary(
        Dictionary(uniqueKeysWithValues: kept.map { ($0, state.items[$0] ?? Loader.State()) }))
    case .middle, .item: break
    }
  }

  static func feature(gate: Gate, computed: Bool) -> Feature<Outer, OuterEvent> {
    let loader = Loader.feature(gate: gate)
    let middle = Feature.combine(
      name: "middle", Feature(name: "middle", reducer: middleOwn),
      loader.lifted(optional: \Middle.loader, event: toLoader).feature)
    return .combine(
      name: "outer", Feature(name: "outer", reducer: outerOwn),
      computed
        ? middle.lifted(optional: \Outer.computedMiddle, event: toMiddle).feature
        : middle.lifted(optional: \Outer.middle, event: toMiddle).feature,
      Feature(name: "items", reducer: loader.reducer, feedbacks: loader.feedbacks)
        .lifted(children: \Outer.items, event: toItem).feature)
  }

  struct Probe {
    let harness = Harness()
    let gate = Gate()
    let activity = ActivityLog<Outer, OuterEvent>()
    let system: System<Outer, OuterEvent>

    init(computed: Bool) {
      system = System(
        initial: Outer(), feature: LiftedPathTests.feature(gate: gate, computed: computed),
        environment: harness.environment, monitor: activity.monitor)
    }

    func send(_ events: OuterEvent...) {
      for event in events { system.send(event) }
      harness.settle()
    }

    var started: [String] { activity.started.compactMap(\.trigger) }
    var cancelled: [String] { activity.cancelled.compactMap(\.trigger) }
  }

  @Test(
    "G4 a query feedback behind two optionals at non-zero offsets restarts on its query, and is cancelled when either optional goes",
    arguments: [false, true])
  func test_G4_twoOptionalsDeep(computed: Bool) {
    let probe = Probe(computed: computed)
    probe.send(.openMiddle, .middle(.openLoader), .middle(.loader(.load(1))), .middle(.loader(.load(1))))
    #expect(probe.started == ["1"])
    #expect(probe.activity.started.map(\.feedback.name) == ["middle/loader/load"])
    probe.send(.middle(.closeLoader))
    #expect(probe.cancelled == ["1"])
    probe.send(.middle(.openLoader), .middle(.loader(.load(2))))
    #expect(probe.started == ["1", "2"])
    probe.send(.closeMiddle)
    #expect(probe.cancelled == ["1", "2"])
    probe.send(.openMiddle, .middle(.openLoader), .middle(.loader(.load(3))))
    probe.gate.open()
    probe.harness.settle()
    // The cancelled effects' late events never reached the reducer (G4).
    #expect(probe.system.state.middle?.loader?.loaded == [3])
    #expect(probe.system.state.middle?.count == 2)
    #expect(probe.system.runningTaskCount == 0)
  }

  @Test(
    "G4 G6 children by id replaced wholesale: the effects of those that went are cancelled in the order they appeared")
  func test_G6_byIDReplacementCancelsInAppearanceOrder() {
    let probe = Probe(computed: false)
    let order = (0..<30).map { ($0 * 7 + 3) % 30 }
    probe.send(order.map(OuterEvent.add) + order.map { OuterEvent.item($0, .load($0)) })
    #expect(probe.started == order.map(String.init))
    let kept = order.filter { $0 % 4 == 0 }
    probe.send(.replaceItems(keeping: kept))
    #expect(probe.cancelled == order.filter { $0 % 4 != 0 }.map(String.init))
    // The kept children's effects go on: a new dictionary with equal children restarts nothing.
    #expect(probe.started.count == order.count)
    probe.gate.open()
    probe.harness.settle()
    #expect(kept.allSatisfy { probe.system.state.items[$0]?.loaded == [$0] })
    #expect(probe.system.state.items.count == kept.count)
  }
}

extension LiftedPathTests {
  /// A child whose feedback is a predicate: lifted by id, it goes through the
  /// recipes rather than the composed path.
  static func pinger(gate: Gate) -> Feature<Loader.State, Loader.Event> {
    Feature(
      name: "pinger", reducer: Loader.reducer,
      feedbacks: [
        .predicate({ $0.request != nil }, whenFalse: .keepRunning, name: "ping") { state in
          .run { send in
            await gate.wait()
            send(.loaded(state.request ?? 0))
          }
        }
      ])
  }

  @Test(
    "G5 G6 a predicate feedback by id, replaced wholesale: the effects of the children that went are cancelled first, in the order they appeared"
  )
  func test_G6_recipeByIDReplacementCancelsInAppearanceOrder() {
    let harness = Harness()
    let gate = Gate()
    let activity = ActivityLog<Outer, OuterEvent>()
    let feature = Feature.combine(
      name: "outer", Feature(name: "outer", reducer: Self.outerOwn),
      Self.pinger(gate: gate).lifted(children: \Outer.items, event: Self.toItem).feature)
    let system = System(initial: Outer(), feature: feature, environment: harness.environment, monitor: activity.monitor)
    let order = (0..<30).map { ($0 * 11 + 2) % 30 }
    for id in order { system.send(.add(id)) }
    for id in order { system.send(.item(id, .load(id))) }
    harness.settle()
    // The monitor keeps every state, so each write copies the dictionary and
    // its log cannot tell what changed: the predicate is asked for every
    // child on every state (level-triggered, G5), and restarts each effect.
    #expect(Set(activity.started.compactMap(\.trigger)) == Set(order.map(String.init)))
    let kept = order.filter { $0 % 5 == 0 }
    let gone = order.filter { $0 % 5 != 0 }
    let cancelledBefore = activity.cancelled.count
    system.send(.replaceItems(keeping: kept))
    harness.settle()
    let cancelled = activity.cancelled.dropFirst(cancelledBefore).compactMap(\.trigger)
    // The kept children's predicates still hold: their effects restart after.
    #expect(Array(cancelled.prefix(gone.count)) == gone.map(String.init))
    #expect(Set(cancelled.dropFirst(gone.count)) == Set(kept.map(String.init)))
    gate.open()
    harness.settle()
    #expect(system.state.items.count == kept.count)
    #expect(system.runningTaskCount == 0)
  }
}

extension LiftedPathTests.Probe {
  func send(_ events: [LiftedPathTests.OuterEvent]) {
    for event in events { system.send(event) }
    harness.settle()
  }
}
