import FeedbackLoop
import FeedbackLoopScenarios
import FeedbackLoopTesting
import Foundation
import Testing

@testable import FeedbackLoop

/// Red-team tests of the event and requests feedbacks by id on their path
/// (`ByIDLeafRuntime`): hostile parent reducers (a child removed, re-added,
/// added or another child written by the very event for a child), effects
/// that send to their own child, to another or remove their child, events
/// for ids that are not there, stops from inside an effect or a monitor,
/// and sends from many threads. Each script is run through the path and
/// through the recipe (a computed property on the way) and the two compared.
@Suite(.runsLeftoverJobs) struct HostileByIDEventTests {
  typealias Child = ByIDEventAndRequestsTests.Child

  /// What the parent's reducer does, besides the child's own reduction,
  /// for an event of a child.
  enum Twist: Sendable, Equatable {
    case plain
    /// Adds the child first if it is not there.
    case upsert
    /// Removes the child (after the child's reduction).
    case thenRemove
    /// Removes the child and adds a fresh one with the same id.
    case removeAndReadd
    /// Also writes another child's value.
    case alsoWrite(Int)
    /// Also removes another child.
    case alsoRemove(Int)
    /// Replaces every child wholesale with `ids` (kept ones keep their state).
    case alsoReplace([Int])
  }

  struct Parent: Sendable, Equatable {
    var padding = "the children are not at offset 0"
    var items: TrackedDictionary<Int, Child.State> = [:]
    var computedItems: TrackedDictionary<Int, Child.State> {
      get { items }
      set { items = newValue }
    }
  }

  enum ParentEvent: Sendable, Equatable {
    case add(Int)
    case remove(Int)
    case readd(Int)
    case replace([Int])
    /// Toggles each id in turn (removed if there, else added), all in one
    /// event: an id twice is removed and re-added; more than the log
    /// holds makes the changes unknown.
    case toggle([Int])
    /// Writes each child in turn (its value plus one), all in one event.
    case touchAll
    case item(Int, Child.Event, Twist)
  }

  struct ToItem: ChildEventCase {
    func embed(_ id: Int, _ event: Child.Event) -> ParentEvent { .item(id, event, .plain) }
    func extract(_ event: ParentEvent) -> (Int, Child.Event)? {
      if case .item(let id, let event, _) = event { (id, event) } else { nil }
    }
  }

  final class SystemBox: @unchecked Sendable {
    // Sendable: set once before the system runs, read from effects only.
    weak var system: System<Parent, ParentEvent>?
  }

  static func own() -> Reducer<Parent, ParentEvent> {
    Reducer { state, event in
      switch event {
      case .add(let id): state.items[id] = Child.State(id: id)
      case .remove(let id): state.items[id] = nil
      case .readd(let id):
        state.items[id] = nil
        state.items[id] = Child.State(id: id)
      case .replace(let kept):
        state.items = TrackedDictionary(
          Dictionary(uniqueKeysWithValues: kept.map { ($0, state.items[$0] ?? Child.State(id: $0)) }))
      case .toggle(let ids):
        for id in ids { state.items[id] = state.items[id] == nil ? Child.State(id: id) : nil }
      case .touchAll:
        for id in state.items.keys.sorted() { state.items[id]?.value += 1 }
      case .item(let id, _, let twist):
        switch twist {
        case .plain: break
        case .upsert: break  // done before the child's reduction (`pre`)
        case .thenRemove: state.items[id] = nil
        case .removeAndReadd:
          state.items[id] = nil
          state.items[id] = Child.State(id: id)
        case .alsoWrite(let other): state.items[other]?.value += 1000
        case .alsoRemove(let other): state.items[other] = nil
        case .alsoReplace(let kept):
          state.items = TrackedDictionary(
            Dictionary(uniqueKeysWithValues: kept.map { ($0, state.items[$0] ?? Child.State(id: $0)) }))
        }
      }
    }
  }

  /// The parent's reduction before the children's: the upsert.
  static func pre() -> Reducer<Parent, ParentEvent> {
    Reducer { state, event in
      if case .item(let id, _, .upsert) = event, state.items[id] == nil { state.items[id] = Child.State(id: id) }
    }
  }

  /// An event feedback: `.set(n)`, n < 0: nothing; n even below 1000: sends
  /// `.done(n)`; n odd below 1000: waits for the gate then `.done(n)`;
  /// 1000 + k: sends `.set(2)` to child k (perhaps itself) through the
  /// system, then `.done(n)`; 2000 + k: removes child k through the system.
  static func events(gate: Gate, seen: Log<String>, box: SystemBox) -> Feature<Child.State, Child.Event> {
    Feature(
      name: "child", reducer: Child.reducer,
      feedbacks: [
        .onEvent(name: "echo") { event, state in
          seen.append("\(state.id):\(event)")
          guard case .set(let value) = event, value >= 0 else { return .none }
          switch value {
          case 2000...:
            return .run { _ in box.system?.send(.remove(value - 2000)) }
          case 1000...:
            return .run { send in
              box.system?.send(.item(value - 1000, .set(2), .plain))
              send(.done(value))
            }
          case _ where value.isMultiple(of: 2): return .send(.done(value))
          default:
            return .run { send in
              await gate.wait()
              send(.done(value))
            }
          }
        }
      ])
  }

  static func requests(gate: Gate) -> Feature<Child.State, Child.Event> {
    Child.requests(gate: gate)
  }

  enum Kind: CaseIterable { case events, requests }

  static func parent(_ kind: Kind, gate: Gate, seen: Log<String>, box: SystemBox, computed: Bool) -> Feature<
    Parent, ParentEvent
  > {
    let child = kind == .events ? events(gate: gate, seen: seen, box: box) : requests(gate: gate)
    return .combine(
      name: "parent", Feature(name: "pre", reducer: pre()),
      computed
        ? child.lifted(children: \Parent.computedItems, event: ToItem()).feature
        : child.lifted(children: \Parent.items, event: ToItem()).feature,
      Feature(name: "own", reducer: own()))
  }

  struct Run: Equatable {
    var started: [String]
    var cancelled: [String]
    var finished: Int
    var seen: [String]
    var state: Parent
    var running: Int
  }

  static func run(
    _ kind: Kind, computed: Bool, monitored: Bool, stopFirst: Bool = false, events: [ParentEvent]
  ) -> Run {
    let harness = Harness()
    let gate = Gate()
    let seen = Log<String>()
    let box = SystemBox()
    let activity = ActivityLog<Parent, ParentEvent>()
    let system = System(
      initial: Parent(), feature: parent(kind, gate: gate, seen: seen, box: box, computed: computed),
      environment: harness.environment, monitor: monitored ? activity.monitor : nil)
    box.system = system
    for event in events {
      system.send(event)
      harness.settle()
    }
    let running = system.runningTaskCount
    if stopFirst {
      system.stop()
      harness.settle()
    }
    gate.open()
    harness.settle()
    if stopFirst { #expect(system.runningTaskCount == 0) }
    defer { system.stop() }
    var state = system.state
    for id in state.items.keys { state.items[id]?.done.sort() }
    return Run(
      started: activity.started.compactMap(\.trigger), cancelled: activity.cancelled.compactMap(\.trigger),
      finished: activity.finished.count, seen: seen.entries, state: state, running: running)
  }

  /// Runs `events` through the path and the recipe, monitored and not,
  /// stopped before the gate opens and not, and compares.
  static func compare(_ kind: Kind, _ events: [ParentEvent], sourceLocation: SourceLocation = #_sourceLocation)
    -> Run
  {
    var last: Run?
    for monitored in [true, false] {
      for stopFirst in [false, true] {
        let path = run(kind, computed: false, monitored: monitored, stopFirst: stopFirst, events: events)
        let recipe = run(kind, computed: true, monitored: monitored, stopFirst: stopFirst, events: events)
        #expect(path.started.sorted() == recipe.started.sorted(), sourceLocation: sourceLocation)
        #expect(path.cancelled.sorted() == recipe.cancelled.sorted(), sourceLocation: sourceLocation)
        #expect(path.finished == recipe.finished, sourceLocation: sourceLocation)
        #expect(path.seen == recipe.seen, sourceLocation: sourceLocation)
        #expect(path.state == recipe.state, sourceLocation: sourceLocation)
        #expect(path.running == recipe.running, sourceLocation: sourceLocation)
        if monitored, !stopFirst { last = path }
      }
    }
    return last!
  }

  @Test("an event for a child that its parent removes, removes and re-adds, or adds in the same event: as the recipe")
  func eventThatReshapesItsOwnChild() {
    let run = Self.compare(
      .events,
      [
        .item(7, .set(3), .plain),  // no child 7: nothing
        .item(7, .set(3), .upsert),  // 7 added by the event itself: its feedback sees it
        .add(1), .item(1, .set(5), .plain),  // 1 waits
        .item(1, .set(9), .thenRemove),  // 1 goes with the event for it
        .add(1), .item(1, .set(11), .plain),  // a new 1 waits
        .item(1, .set(13), .removeAndReadd),  // removed and re-added by its own event
        .readd(1),  // removed and re-added by another event
        .item(1, .set(-1), .plain),
      ])
    #expect(run.seen.first == "7:set(3)")
    #expect(!run.seen.contains("1:set(9)"))
  }

  @Test("an event for one child that also writes, removes or replaces others: as the recipe")
  func eventThatTouchesOtherChildren() {
    let run = Self.compare(
      .events,
      [
        .add(1), .add(2), .add(3),
        .item(1, .set(5), .plain), .item(2, .set(7), .plain), .item(3, .set(9), .plain),
        .item(1, .set(11), .alsoWrite(2)),  // 1's write then 2's: the last write is not 1's
        .item(2, .set(-2), .alsoRemove(3)),  // 3's effect cancelled, 2's goes on
        .item(1, .set(4), .alsoReplace([1, 4])),  // 2 goes; 1 kept; 4 arrives
        .item(4, .set(15), .alsoReplace([2])),  // 4 replaced away by its own event
        .item(2, .set(17), .alsoWrite(99)),  // a write of a child that is not there
      ])
    #expect(run.state.items.keys.sorted() == [2])
    #expect(!run.seen.contains("4:set(15)"))
  }

  @Test("effects that send to their own child, to another, or remove their own or another child: as the recipe")
  func effectsThatSendAndRemove() {
    let run = Self.compare(
      .events,
      [
        .add(1), .add(2),
        .item(1, .set(1001), .plain),  // 1's effect sends .set(2) to itself
        .item(1, .set(1002), .plain),  // to 2
        .item(2, .set(1009), .plain),  // to 9, not there
        .item(1, .set(3), .plain),  // 1 waits
        .item(2, .set(2001), .plain),  // 2's effect removes 1
        .add(1), .item(1, .set(5), .plain),
        .item(1, .set(2001), .plain),  // 1's effect removes 1 itself
        .item(2, .set(2002), .plain),  // and 2 itself
      ])
    #expect(run.seen.contains("1:set(2)"))
    #expect(run.seen.contains("2:set(2)"))
    #expect(run.state.items.isEmpty)
  }

  @Test(
    "G6 requests by id under the same hostile reducers: duplicates, one child's requests changing while others stay")
  func requestsUnderHostileReducers() {
    let run = Self.compare(
      .requests,
      [
        .add(1), .add(2),
        .item(1, .want([1, 1, 3, 3]), .plain),  // duplicates: one effect each
        .item(2, .want([3, 5]), .plain),
        .item(1, .want([3, 7]), .alsoWrite(2)),  // 1 changes, 2 written but its requests stay
        .item(2, .want([3, 5]), .removeAndReadd),  // 2 fresh: its requests gone within the event
        .item(2, .want([5]), .plain),
        .item(1, .want([9]), .thenRemove),  // 1 goes with the event that changed its requests
        .item(3, .want([11]), .upsert),  // 3 added by its own event
        .readd(3),  // 3 fresh: no requests
        .item(3, .want([11]), .alsoReplace([3, 4])),
        .item(4, .want([13]), .alsoRemove(3)),
      ])
    #expect(run.state.items.keys.sorted() == [4])
  }

  @Test("a stop from inside a monitor's report of a started effect: nothing runs afterwards; as the recipe")
  func stopFromAMonitor() {
    for kind in Kind.allCases {
      var results: [[String]] = []
      for computed in [false, true] {
        let harness = Harness()
        let gate = Gate()
        let seen = Log<String>()
        let box = SystemBox()
        let reduced = Log<String>()
        let monitor = SystemMonitor<Parent, ParentEvent> { activity in
          switch activity {
          case .effectStarted: box.system?.stop()
          case .reduced(let event, _, _, _): reduced.append("\(event)")
          default: break
          }
        }
        let system = System(
          initial: Parent(), feature: Self.parent(kind, gate: gate, seen: seen, box: box, computed: computed),
          environment: harness.environment, monitor: monitor)
        box.system = system
        system.send(.add(1))
        system.send(kind == .events ? .item(1, .set(3), .plain) : .item(1, .want([1, 3]), .plain))
        system.send(.item(1, .set(4), .plain))
        harness.settle()
        gate.open()
        harness.settle()
        #expect(system.runningTaskCount == 0)
        #expect(system.state.items[1]?.done == [])
        results.append(reduced.entries + seen.entries)
      }
      #expect(results[0] == results[1])
    }
  }

  @Test("an event feedback by id with the merge and queue strategies: the path does what the recipe does")
  func strategiesOtherThanCancelPrevious() {
    for strategy in [ExecutionStrategy.merge, .queue, .cancelPrevious] {
      var results: [[Int]] = []
      for computed in [false, true] {
        let harness = Harness()
        let gate = Gate()
        let child = Feature<Child.State, Child.Event>(
          name: "child", reducer: Child.reducer,
          feedbacks: [
            .onEvent(strategy: strategy, name: "slow") { event, _ in
              guard case .set(let value) = event else { return .none }
              return .run { send in
                await gate.wait()
                send(.done(value))
              }
            }
          ])
        let system = System(
          initial: Parent(),
          feature: .combine(
            name: "parent", Feature(name: "own", reducer: Self.own()),
            computed
              ? child.lifted(children: \Parent.computedItems, event: ToItem()).feature
              : child.lifted(children: \Parent.items, event: ToItem()).feature),
          environment: harness.environment)
        system.send(.add(1))
        system.send(.item(1, .set(1), .plain))
        system.send(.item(1, .set(2), .plain))
        harness.settle()
        gate.open()
        harness.settle()
        results.append(system.state.items[1]?.done ?? [-1])
        system.stop()
      }
      #expect(results[0] == results[1], "\(strategy)")
    }
  }

  struct Outer: Sendable, Equatable {
    var before = 1
    var middle: Parent? = nil
    var saved: Parent? = nil
    var computedMiddle: Parent? {
      get { middle }
      set { middle = newValue }
    }
  }

  enum OuterEvent: Sendable, Equatable {
    case open
    case close
    /// Saves the middle, closes it; then `restore` puts the saved one back.
    case save
    case restore
    case middle(ParentEvent)
    /// An event for the middle, after whose reduction the middle closes.
    case closeAfter(ParentEvent)
  }

  struct ToMiddle: EventCase {
    func embed(_ event: ParentEvent) -> OuterEvent { .middle(event) }
    func extract(_ event: OuterEvent) -> ParentEvent? {
      switch event {
      case .middle(let event), .closeAfter(let event): event
      default: nil
      }
    }
  }

  static func outer(_ kind: Kind, gate: Gate, seen: Log<String>, box: SystemBox, computed: Bool) -> Feature<
    Outer, OuterEvent
  > {
    let middle = parent(kind, gate: gate, seen: seen, box: box, computed: false)
    let own = Reducer<Outer, OuterEvent> { state, event in
      switch event {
      case .open: state.middle = Parent()
      case .close, .closeAfter: state.middle = nil
      case .save:
        state.saved = state.middle
        state.middle = nil
      case .restore: state.middle = state.saved
      case .middle: break
      }
    }
    return .combine(
      name: "outer",
      computed
        ? middle.lifted(optional: \Outer.computedMiddle, event: ToMiddle()).feature
        : middle.lifted(optional: \Outer.middle, event: ToMiddle()).feature,
      Feature(name: "outer", reducer: own))
  }

  @Test(
    "lifted further into an optional: an event for a child that closes the optional, a middle saved and restored with running children; as the recipe"
  )
  func liftedFurtherHostile() {
    let script: [OuterEvent] = [
      .open, .middle(.add(1)), .middle(.add(2)),
      .middle(.item(1, .set(3), .plain)),
      .closeAfter(.item(2, .set(5), .plain)),  // 2's event then the middle goes
      .open, .middle(.add(1)), .middle(.item(1, .set(7), .plain)),
      .save,  // 1 goes with the middle
      .middle(.item(1, .set(9), .plain)),  // no middle
      .restore,  // 1 back, as it was: no effect of its own
      .middle(.item(1, .set(11), .plain)),
      .middle(.item(1, .set(12), .removeAndReadd)),
    ]
    for kind in Kind.allCases {
      let events: [OuterEvent] =
        kind == .events
        ? script
        : script.map {
          switch $0 {
          case .middle(.item(let id, .set(let value), let twist)): .middle(.item(id, .want([value, value + 2]), twist))
          case .closeAfter(.item(let id, .set(let value), let twist)):
            .closeAfter(.item(id, .want([value]), twist))
          default: $0
          }
        }
      for monitored in [true, false] {
        var runs: [(started: [String], cancelled: [String], seen: [String], state: Outer, running: Int)] = []
        for computed in [false, true] {
          let harness = Harness()
          let gate = Gate()
          let seen = Log<String>()
          let box = SystemBox()
          let activity = ActivityLog<Outer, OuterEvent>()
          let system = System(
            initial: Outer(), feature: Self.outer(kind, gate: gate, seen: seen, box: box, computed: computed),
            environment: harness.environment, monitor: monitored ? activity.monitor : nil)
          for event in events {
            system.send(event)
            harness.settle()
          }
          let running = system.runningTaskCount
          gate.open()
          harness.settle()
          var state = system.state
          for id in state.middle?.items.keys.map({ $0 }) ?? [] { state.middle?.items[id]?.done.sort() }
          runs.append(
            (
              activity.started.compactMap(\.trigger).sorted(), activity.cancelled.compactMap(\.trigger).sorted(),
              seen.entries, state, running
            ))
          system.stop()
        }
        #expect(runs[0].started == runs[1].started, "\(kind) monitored \(monitored)")
        #expect(runs[0].cancelled == runs[1].cancelled, "\(kind) monitored \(monitored)")
        #expect(runs[0].seen == runs[1].seen, "\(kind) monitored \(monitored)")
        #expect(runs[0].state == runs[1].state, "\(kind) monitored \(monitored)")
        #expect(runs[0].running == runs[1].running, "\(kind) monitored \(monitored)")
      }
    }
  }

  /// A deterministic generator of scripts (a linear congruential one).
  struct Dice {
    var seed: UInt64
    mutating func roll(_ count: Int) -> Int {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((seed >> 33) % UInt64(count))
    }
  }

  static func script(seed: UInt64, kind: Kind, length: Int = 120) -> [ParentEvent] {
    var dice = Dice(seed: seed)
    var events: [ParentEvent] = []
    let ids = 8
    for _ in 0..<length {
      let id = dice.roll(ids)
      let other = dice.roll(ids)
      let child: Child.Event
      if kind == .events {
        let values = [-1, 2, 3, 5, 1000 + other, 2000 + other, 4, 7]
        child = .set(values[dice.roll(values.count)])
      } else {
        child = .want((0..<dice.roll(4)).map { _ in dice.roll(6) })
      }
      let twists: [Twist] = [
        .plain, .plain, .plain, .upsert, .thenRemove, .removeAndReadd, .alsoWrite(other), .alsoRemove(other),
        .alsoReplace((0..<dice.roll(ids)).map { _ in dice.roll(ids) }.uniqued()),
      ]
      switch dice.roll(12) {
      case 0: events.append(.add(id))
      case 1: events.append(.remove(id))
      case 2: events.append(.readd(id))
      case 3: events.append(.toggle((0..<(dice.roll(2) == 0 ? 5 : 70)).map { _ in dice.roll(ids) }))
      case 4: events.append(.touchAll)
      case 5: events.append(.replace((0..<dice.roll(ids)).map { _ in dice.roll(ids) }.uniqued()))
      default: events.append(.item(id, child, twists[dice.roll(twists.count)]))
      }
    }
    return events
  }

  @Test(
    "G2 G6 random hostile scripts: the path and the recipe start, cancel and see the same, and end in the same state")
  func randomScripts() {
    for kind in Kind.allCases {
      for seed in UInt64(1)...12 {
        let events = Self.script(seed: seed, kind: kind)
        for monitored in [true, false] {
          let path = Self.run(kind, computed: false, monitored: monitored, events: events)
          let recipe = Self.run(kind, computed: true, monitored: monitored, events: events)
          #expect(path.started.sorted() == recipe.started.sorted(), "\(kind) seed \(seed)")
          #expect(path.cancelled.sorted() == recipe.cancelled.sorted(), "\(kind) seed \(seed)")
          #expect(path.finished == recipe.finished, "\(kind) seed \(seed)")
          #expect(path.seen == recipe.seen, "\(kind) seed \(seed)")
          #expect(path.state == recipe.state, "\(kind) seed \(seed)")
          #expect(path.running == recipe.running, "\(kind) seed \(seed)")
          #expect(!path.state.items.isEmpty || !path.seen.isEmpty || kind == .requests)
          if monitored { #expect(!path.started.isEmpty, "\(kind) seed \(seed)") }
        }
        // A monitor changes nothing the feedbacks do.
        let quiet = Self.run(kind, computed: false, monitored: false, events: events)
        let watched = Self.run(kind, computed: false, monitored: true, events: events)
        #expect(quiet.seen == watched.seen, "\(kind) seed \(seed)")
        #expect(quiet.state == watched.state, "\(kind) seed \(seed)")
        #expect(quiet.running == watched.running, "\(kind) seed \(seed)")
      }
    }
  }

  @Test("the order children's effects are cancelled in, when one event removes many: the path's is the recipe's")
  func cancellationOrder() {
    // Many children waiting, then removed by one event: a few (the log
    // names them) and many (more than the log holds: unknown).
    for count in [5, 40] {
      let ids = Array((0..<count).reversed())
      let events: [ParentEvent] =
        ids.map { .add($0) } + ids.map { .item($0, .set(3), .plain) } + [.toggle(ids.shuffledDeterministically())]
      let path = Self.run(.events, computed: false, monitored: true, events: events)
      let recipe = Self.run(.events, computed: true, monitored: true, events: events)
      #expect(path.cancelled.count == count)
      #expect(path.cancelled.sorted() == recipe.cancelled.sorted())
      #expect(path.cancelled == recipe.cancelled, "\(count) children")
    }
  }

  @Test("the parent features take the by-id path; through the computed property, the recipe")
  func pathsTaken() {
    let (gate, seen, box) = (Gate(), Log<String>(), SystemBox())
    for kind in Kind.allCases {
      let path = Self.parent(kind, gate: gate, seen: seen, box: box, computed: false).feedbacks
      let recipe = Self.parent(kind, gate: gate, seen: seen, box: box, computed: true).feedbacks
      #expect(!path.isEmpty && path.allSatisfy { $0.byID != nil })
      #expect(!recipe.isEmpty && recipe.allSatisfy { $0.byID == nil })
      let outer = Self.outer(kind, gate: gate, seen: seen, box: box, computed: false).feedbacks
      #expect(!outer.isEmpty && outer.allSatisfy { $0.byID != nil })
    }
  }

  struct Hosts: Sendable, Equatable {
    var padding = "the children are not at offset 0"
    var items: TrackedDictionary<Int, ByIDEventAndRequestsTests.Host> = [:]
    var computedItems: TrackedDictionary<Int, ByIDEventAndRequestsTests.Host> {
      get { items }
      set { items = newValue }
    }
  }

  @Test(
    "an event feedback inside an optional of a child by id, the optional and children coming and going: as the recipe")
  func insideAnOptionalOfAChildAgainstTheRecipe() {
    typealias HostsEvent = ByIDEventAndRequestsTests.HostsEvent
    let script: [HostsEvent] = [
      .add(1), .item(1, .sub(.set(3))), .item(1, .open), .item(1, .sub(.set(3))), .add(2), .item(2, .open),
      .item(2, .sub(.set(5))), .item(1, .close), .item(1, .sub(.set(7))), .item(1, .open), .item(1, .sub(.set(2))),
      .item(2, .open),  // a fresh optional, while 2's effect runs
      .item(2, .sub(.set(-1))), .add(2),  // 2 replaced by a host without its optional
      .item(2, .sub(.set(9))), .item(1, .sub(.set(11))),
    ]
    for monitored in [true, false] {
      var runs: [([String], [String], [String], Hosts)] = []
      for computed in [false, true] {
        let harness = Harness()
        let gate = Gate()
        let seen = Log<String>()
        let activity = ActivityLog<Hosts, HostsEvent>()
        let own = Reducer<Hosts, HostsEvent> { state, event in
          if case .add(let id) = event { state.items[id] = ByIDEventAndRequestsTests.Host(id: id) }
        }
        let host = ByIDEventAndRequestsTests.host(gate: gate, seen: seen)
        let system = System(
          initial: Hosts(),
          feature: .combine(
            name: "hosts", Feature(name: "hosts", reducer: own),
            computed
              ? host.lifted(children: \Hosts.computedItems, event: ByIDEventAndRequestsTests.ToHost()).feature
              : host.lifted(children: \Hosts.items, event: ByIDEventAndRequestsTests.ToHost()).feature),
          environment: harness.environment, monitor: monitored ? activity.monitor : nil)
        for event in script {
          system.send(event)
          harness.settle()
        }
        gate.open()
        harness.settle()
        runs.append(
          (
            activity.started.compactMap(\.trigger), activity.cancelled.compactMap(\.trigger).sorted(), seen.entries,
            system.state
          ))
        system.stop()
      }
      #expect(runs[0].0 == runs[1].0, "monitored \(monitored)")
      #expect(runs[0].1 == runs[1].1, "monitored \(monitored)")
      #expect(runs[0].2 == runs[1].2, "monitored \(monitored)")
      #expect(runs[0].3 == runs[1].3, "monitored \(monitored)")
    }
  }

  @Test(
    "G2 sends from many threads, each to its own children, adding, re-adding and removing them: each child's feedback sees exactly its events, in order"
  )
  func manyThreadsReshapingChildren() {
    let seen = Log<String>()
    let gate = Gate()
    gate.open()
    let box = SystemBox()
    // The events for children that are gone are logged as discarded: to a
    // recorder, so that a passing run stays quiet.
    let system = System(
      initial: Parent(), feature: Self.parent(.events, gate: gate, seen: seen, box: box, computed: false),
      environment: SystemEnvironment(logger: LogRecorder().logger))
    box.system = system
    DispatchQueue.concurrentPerform(iterations: 4) { thread in
      for round in 0..<50 {
        let id = thread * 100 + round % 5
        system.send(.add(id))
        system.send(.item(id, .set(-1), .plain))
        system.send(.item(id, .set(-2), .removeAndReadd))
        system.send(.readd(id))
        system.send(.item(id, .set(-3), .alsoWrite(id)))
        system.send(.item(id, .set(-4), .thenRemove))
        system.send(.item(id, .set(-5), .plain))  // gone: not seen
        system.send(.item(id, .set(-6), .upsert))
        system.send(.remove(id))
      }
    }
    system.stop()
    let entries = seen.entries
    for thread in 0..<4 {
      for k in 0..<5 {
        let id = thread * 100 + k
        let own = entries.filter { $0.hasPrefix("\(id):") }
        let one = ["set(-1)", "set(-2)", "set(-3)", "set(-6)"].map { "\(id):\($0)" }
        #expect(own == Array(Array(repeating: one, count: 10).joined()), "child \(id)")
      }
    }
    #expect(entries.count == 4 * 50 * 4)
    #expect(system.state.items.isEmpty)
  }
}

extension Array where Element: Hashable {
  /// The elements, each once, in the order they first appear.
  fileprivate func uniqued() -> [Element] {
    var seen: Set<Element> = []
    return filter { seen.insert($0).inserted }
  }

  /// A fixed permutation: the odd positions, then the even ones.
  fileprivate func shuffledDeterministically() -> [Element] {
    enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
      + enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
  }
}
