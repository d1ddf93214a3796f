import FeedbackLoop
import FeedbackLoopScenarios
import FeedbackLoopTesting
import Foundation
import Testing

@testable import FeedbackLoop

/// The event and requests feedbacks of children by id, through the path
/// (`LeafPath` → `ByIDLeafRuntime`: the event logic asked after each
/// event for a child, the requests kept by child and request), directly and
/// lifted further (a stored property, then an optional); and through the
/// recipe, which a computed property on the way falls back to. The two are
/// run side by side and compared: the same effects started and cancelled,
/// with the same triggers, the same events seen, the same states.
@Suite(.runsLeftoverJobs) struct ByIDEventAndRequestsTests {
  enum Child {
    struct State: Sendable, Equatable {
      var id = 0
      var value = 0
      var wanted: [Int] = []
      var done: [Int] = []
    }

    enum Event: Sendable, Equatable {
      case set(Int)
      case want([Int])
      case done(Int)
    }

    static let reducer = Reducer<State, Event> { state, event in
      switch event {
      case .set(let value): state.value = value
      case .want(let wanted): state.wanted = wanted
      case .done(let value): state.done.append(value)
      }
    }

    /// An event feedback: `.set(n)` with n < 0 does nothing (the running
    /// effect goes on), an even n sends `.done(n)` at once (an event from
    /// inside an effect), an odd n waits for the gate then sends `.done(n)`.
    /// Every call is written to `seen` as `id:event`.
    static func events(gate: Gate, seen: Log<String>) -> Feature<State, Event> {
      Feature(
        name: "child", reducer: reducer,
        feedbacks: [
          .onEvent(name: "echo") { event, state in
            seen.append("\(state.id):\(event)")
            guard case .set(let value) = event, value >= 0 else { return .none }
            if value.isMultiple(of: 2) { return .send(.done(value)) }
            return .run { send in
              await gate.wait()
              send(.done(value))
            }
          }
        ])
    }

    /// A requests feedback over `wanted`: an even request does nothing, an
    /// odd one waits for the gate then sends `.done(100 + request)`.
    static func requests(gate: Gate) -> Feature<State, Event> {
      Feature(
        name: "child", reducer: reducer,
        feedbacks: [
          .requests({ Set($0.wanted) }, name: "fetch") { request in
            if request.isMultiple(of: 2) { return .none }
            return .run { send in
              await gate.wait()
              send(.done(100 + request))
            }
          }
        ])
    }
  }

  struct Inner: Sendable, Equatable {
    var padding = "the children are not at offset 0"
    var items: TrackedDictionary<Int, Child.State> = [:]
    /// The same children behind a computed property: the recipe's path.
    var computedItems: TrackedDictionary<Int, Child.State> {
      get { items }
      set { items = newValue }
    }
  }

  enum InnerEvent: Sendable, Equatable {
    case add(Int)
    case remove(Int)
    /// The children replaced wholesale: the ids kept keep their state.
    case replace([Int])
    case item(Int, Child.Event)
  }

  struct Middle: Sendable, Equatable {
    var count = 0
    var inner = Inner()
  }

  struct Outer: Sendable, Equatable {
    var before = 1
    var middle: Middle? = nil
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
    func embed(_ id: Int, _ event: Child.Event) -> InnerEvent { .item(id, event) }
    func extract(_ event: InnerEvent) -> (Int, Child.Event)? {
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

  enum Kind: CaseIterable { case events, requests }

  /// The children's feature of `kind`, and what its event feedback saw.
  static func child(_ kind: Kind, gate: Gate, seen: Log<String>) -> Feature<Child.State, Child.Event> {
    switch kind {
    case .events: Child.events(gate: gate, seen: seen)
    case .requests: Child.requests(gate: gate)
    }
  }

  static func inner(_ kind: Kind, gate: Gate, seen: Log<String>, computed: Bool) -> Feature<Inner, InnerEvent> {
    let own = Reducer<Inner, InnerEvent> { state, event in
      switch event {
      case .add(let id): state.items[id] = Child.State(id: id)
      case .remove(let id): state.items[id] = nil
      case .replace(let kept):
        state.items = TrackedDictionary(
          Dictionary(uniqueKeysWithValues: kept.map { ($0, state.items[$0] ?? Child.State(id: $0)) }))
      case .item: break
      }
    }
    let child = Self.child(kind, gate: gate, seen: seen)
    return .combine(
      name: "inner", Feature(name: "inner", reducer: own),
      computed
        ? child.lifted(children: \Inner.computedItems, event: ToItem()).feature
        : child.lifted(children: \Inner.items, event: ToItem()).feature)
  }

  static func outer(_ kind: Kind, gate: Gate, seen: Log<String>, computed: Bool) -> Feature<Outer, OuterEvent> {
    let middle = inner(kind, gate: gate, seen: seen, computed: false).lifted(state: \Middle.inner, event: Same())
      .feature
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

  /// What one run did.
  struct Run<State: Equatable>: Equatable {
    var started: [String]
    var cancelled: [String]
    var finished: Int
    var seen: [String]
    var state: State
    var running: Int
  }

  /// Sends `events` one at a time (settling after each), then opens the
  /// gate (after a stop, with `stopFirst`). Without `monitored`, no monitor
  /// keeps the states, so the children are written in place and the path
  /// takes its in-place way; with it, every write copies them.
  static func run<State: Sendable & Equatable, Event: Sendable>(
    initial: State, monitored: Bool, stopFirst: Bool = false, events: [Event],
    feature: (Gate, Log<String>) -> Feature<State, Event>
  ) -> Run<State> {
    let harness = Harness()
    let gate = Gate()
    let seen = Log<String>()
    let activity = ActivityLog<State, Event>()
    let system = System(
      initial: initial, feature: feature(gate, seen), environment: harness.environment,
      monitor: monitored ? activity.monitor : nil)
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
    return Run(
      started: activity.started.compactMap(\.trigger), cancelled: activity.cancelled.compactMap(\.trigger),
      finished: activity.finished.count, seen: seen.entries, state: system.state, running: running)
  }

  @Test("the event and requests feedbacks have a path, by id and lifted further; a computed property takes the recipe")
  func pathsAndFallback() {
    let (gate, seen) = (Gate(), Log<String>())
    for kind in Kind.allCases {
      let alone = Self.child(kind, gate: gate, seen: seen).feedbacks
      #expect(alone.allSatisfy { $0.path != nil && $0.built != nil })
      // Their paths serve the lifts by id only: lifted into a single
      // child, the recipe makes the feedback.
      let single = Self.child(kind, gate: gate, seen: seen).lifted(state: \Holder.child, event: Identity())
      #expect(single.feedbacks.allSatisfy { $0.path != nil && $0.built == nil })
      #expect(Self.inner(kind, gate: gate, seen: seen, computed: false).feedbacks.allSatisfy { $0.byID != nil })
      #expect(Self.inner(kind, gate: gate, seen: seen, computed: true).feedbacks.allSatisfy { $0.byID == nil })
      #expect(Self.outer(kind, gate: gate, seen: seen, computed: false).feedbacks.allSatisfy { $0.byID != nil })
      #expect(Self.outer(kind, gate: gate, seen: seen, computed: true).feedbacks.allSatisfy { $0.byID == nil })
      #expect(
        Self.outer(kind, gate: gate, seen: seen, computed: false).feedbacks.map(\.name)
          == Self.outer(kind, gate: gate, seen: seen, computed: true).feedbacks.map(\.name))
    }
  }

  struct Holder: Sendable {
    var padding = "the child is not at offset 0"
    var child = Child.State()
  }

  struct Identity: EventCase {
    func embed(_ event: Child.Event) -> Child.Event { event }
    func extract(_ event: Child.Event) -> Child.Event? { event }
  }

  static let eventEvents: [InnerEvent] = [
    .item(1, .set(1)),  // no child 1 yet: nothing seen
    .add(1), .add(2),
    .item(1, .set(3)),  // 1 waits
    .item(2, .set(4)),  // 2 sends .done(4) at once, which 2's feedback sees
    .item(1, .set(-1)),  // nothing: 1 keeps waiting
    .item(1, .set(5)),  // 1's effect replaced
    .item(2, .set(7)),  // 2 waits
    .remove(2),  // 2's effect cancelled
    .item(2, .set(9)),  // no child 2: nothing seen
    .add(2), .item(2, .set(6)),
    .add(3), .item(3, .set(11)),
    .replace([3, 4]),  // 1 and 2 go, in the order they appeared; 3 keeps its effect
    .item(4, .set(8)),
  ]

  @Test(
    "an event feedback by id sees exactly its own child's events, in order; a new effect replaces the child's running one, `.none` leaves it; a child's going cancels it; the same as the recipe's"
  )
  func eventsByID() {
    for monitored in [true, false] {
      for stopFirst in [false, true] {
        let path = Self.run(initial: Inner(), monitored: monitored, stopFirst: stopFirst, events: Self.eventEvents) {
          Self.inner(.events, gate: $0, seen: $1, computed: false)
        }
        let recipe = Self.run(initial: Inner(), monitored: monitored, stopFirst: stopFirst, events: Self.eventEvents) {
          Self.inner(.events, gate: $0, seen: $1, computed: true)
        }
        #expect(
          path.seen == [
            "1:set(3)", "2:set(4)", "2:done(4)", "1:set(-1)", "1:set(5)", "2:set(7)", "2:set(6)", "2:done(6)",
            "3:set(11)", "4:set(8)", "4:done(8)",
          ] + (stopFirst ? [] : ["3:done(11)"]))
        #expect(path.state.items[3]?.done == (stopFirst ? [] : [11]))
        #expect(path.state.items[4]?.done == [8])
        if monitored {
          #expect(path.started == ["1", "2", "1", "2", "2", "3", "4"])
          // 2's immediate effects had ended: nothing to report cancelled.
          #expect(path.cancelled == ["1", "2", "1"] + (stopFirst ? ["3"] : []))
        }
        #expect(path.started == recipe.started)
        #expect(path.cancelled.sorted() == recipe.cancelled.sorted())
        #expect(path.cancelled.prefix(3) == recipe.cancelled.prefix(3))
        #expect(path.finished == recipe.finished)
        #expect(path.seen == recipe.seen)
        #expect(path.state == recipe.state)
        #expect(path.running == recipe.running)
      }
    }
  }

  @Test(
    "an event feedback by id lifted further (a stored property, an optional): its child's events only, and the optional's going cancels every child's effect in the order they appeared; the same as the recipe's"
  )
  func eventsLiftedFurther() {
    let events: [OuterEvent] =
      [.middle(.add(1)), .open] + Self.eventEvents.map { .middle($0) } + [
        .middle(.item(3, .set(13))),  // 3's effect replaced
        .close,  // 3 and 4 go
        .middle(.item(3, .set(15))),  // no middle: nothing seen
        .open, .middle(.add(3)), .middle(.item(3, .set(17))),
      ]
    for monitored in [true, false] {
      let path = Self.run(initial: Outer(), monitored: monitored, events: events) {
        Self.outer(.events, gate: $0, seen: $1, computed: false)
      }
      let recipe = Self.run(initial: Outer(), monitored: monitored, events: events) {
        Self.outer(.events, gate: $0, seen: $1, computed: true)
      }
      #expect(path.seen.suffix(4) == ["4:done(8)", "3:set(13)", "3:set(17)", "3:done(17)"])
      #expect(path.state.middle?.inner.items[3]?.done == [17])
      if monitored {
        #expect(path.started == ["1", "2", "1", "2", "2", "3", "4", "3", "3"])
        // The optional's going: 3 (running) then 4 (ended already).
        #expect(path.cancelled == ["1", "2", "1", "3", "3"])
      }
      #expect(path.started == recipe.started)
      #expect(path.cancelled == recipe.cancelled)
      #expect(path.finished == recipe.finished)
      #expect(path.seen == recipe.seen)
      #expect(path.state == recipe.state)
      #expect(path.running == recipe.running)
    }
  }

  static let requestEvents: [InnerEvent] = [
    .add(1), .add(2),
    .item(1, .want([1, 3])),  // two effects for 1
    .item(2, .want([1])),  // and one for 2: the same request, another child
    .item(1, .want([3, 5, 4])),  // 1 cancels 1, keeps 3, starts 5 and 4 (which does nothing)
    .item(1, .want([3, 5, 4])),  // nothing changes
    .item(1, .set(9)),  // a state of 1's, its requests the same: nothing changes
    .item(2, .want([])),  // 2's request cancelled
    .item(2, .want([1])),  // and started again
    .remove(2),  // 2 goes, with its request
    .add(2), .item(2, .want([7])),
    .add(3), .item(3, .want([9, 11])),
    .replace([3, 4]),  // 1 and 2 go, in the order they appeared; 3 keeps its effects
    .item(4, .want([2, 13])),
  ]

  @Test(
    "G6 a requests feedback by id: each child's requests start and cancel on their own, kept ones go on, a child's going cancels them all, a removed request's late event is dropped; the same as the recipe's"
  )
  func requestsByID() {
    for monitored in [true, false] {
      for stopFirst in [false, true] {
        let path = Self.run(initial: Inner(), monitored: monitored, stopFirst: stopFirst, events: Self.requestEvents) {
          Self.inner(.requests, gate: $0, seen: $1, computed: false)
        }
        let recipe = Self.run(
          initial: Inner(), monitored: monitored, stopFirst: stopFirst, events: Self.requestEvents
        ) { Self.inner(.requests, gate: $0, seen: $1, computed: true) }
        #expect(path.state.items[3]?.done.sorted() == (stopFirst ? [] : [109, 111]))
        #expect(path.state.items[4]?.done == (stopFirst ? [] : [113]))
        if monitored {
          #expect(
            path.started.sorted()
              == ["1: 1", "1: 3", "1: 4", "1: 5", "2: 1", "2: 1", "2: 7", "3: 11", "3: 9", "4: 13", "4: 2"])
          #expect(path.cancelled.prefix(3) == ["1: 1", "2: 1", "2: 1"])
        }
        #expect(path.started.sorted() == recipe.started.sorted())
        #expect(path.cancelled.sorted() == recipe.cancelled.sorted())
        #expect(path.cancelled.prefix(3) == recipe.cancelled.prefix(3))
        #expect(path.finished == recipe.finished)
        // A child's requests run side by side, started in their set's
        // order, which differs between two sets (each seeds its hashing).
        #expect(Self.sorted(path.state) == Self.sorted(recipe.state))
        #expect(path.running == recipe.running)
      }
    }
  }

  /// `state` with each child's `done` sorted.
  static func sorted(_ state: Inner) -> Inner {
    var state = state
    for id in state.items.keys { state.items[id]?.done.sort() }
    return state
  }

  @Test(
    "G6 a requests feedback by id lifted further: the optional's going cancels every child's requests; a child removed and added back while its request runs starts it anew and drops the old one's late event"
  )
  func requestsLiftedFurther() {
    let events: [OuterEvent] =
      [.open] + Self.requestEvents.map { .middle($0) } + [
        .middle(.remove(4)), .middle(.add(4)), .middle(.item(4, .want([13]))),  // 13 again, for a new child 4
        .close,  // 3 and 4 go, with their requests
        .open, .middle(.add(3)), .middle(.item(3, .want([15]))),
      ]
    for monitored in [true, false] {
      let path = Self.run(initial: Outer(), monitored: monitored, events: events) {
        Self.outer(.requests, gate: $0, seen: $1, computed: false)
      }
      let recipe = Self.run(initial: Outer(), monitored: monitored, events: events) {
        Self.outer(.requests, gate: $0, seen: $1, computed: true)
      }
      #expect(path.state.middle?.inner.items[3]?.done == [115])
      if monitored {
        #expect(path.started.filter { $0 == "4: 13" }.count == 2)
        #expect(path.cancelled.filter { $0 == "4: 13" }.count == 2)
      }
      #expect(path.started.sorted() == recipe.started.sorted())
      #expect(path.cancelled.sorted() == recipe.cancelled.sorted())
      #expect(path.finished == recipe.finished)
      #expect(path.state == recipe.state)
      #expect(path.running == recipe.running)
    }

    // Removed and added back before the gate opens: the new child 4 has
    // the events of its own effect only.
    let path = Self.run(
      initial: Inner(), monitored: false,
      events: [.add(4), .item(4, .want([13])), .remove(4), .add(4), .item(4, .want([13, 15]))]
    ) { Self.inner(.requests, gate: $0, seen: $1, computed: false) }
    #expect(path.state.items[4]?.done.sorted() == [113, 115])
  }

  @Test(
    "G2 an event feedback by id: events sent from many threads at once each reach their child's feedback once, in the order each thread sent them"
  )
  func eventsFromManyThreads() {
    let seen = Log<String>()
    let gate = Gate()
    gate.open()
    let system = System(initial: Inner(), feature: Self.inner(.events, gate: gate, seen: seen, computed: false))
    for id in 0..<4 { system.send(.add(id)) }
    DispatchQueue.concurrentPerform(iterations: 4) { id in
      // Negative values: effects that do nothing, so that the effects'
      // own events (on other tasks) stay out of this count.
      for value in 1...200 { system.send(.item(id, .set(-value))) }
    }
    system.stop()
    let entries = seen.entries
    #expect(entries.count == 800)
    for id in 0..<4 {
      let own = entries.filter { $0.hasPrefix("\(id):") }
      #expect(own == (1...200).map { "\(id):set(\(-$0))" })
    }
    #expect((0..<4).allSatisfy { system.state.items[$0]?.value == -200 })
  }

  @Test(
    "G9 an event feedback by id: a stop from inside a child's effect ends the pass; events sent after it reach no feedback, and every effect is cancelled"
  )
  func eventsDuringStop() {
    let harness = Harness()
    let seen = Log<String>()
    let gate = Gate()
    let box = SystemBox()
    let child = Feature<Child.State, Child.Event>(
      name: "child", reducer: Child.reducer,
      feedbacks: [
        .onEvent(name: "stopper") { event, state in
          seen.append("\(state.id):\(event)")
          switch event {
          case .set(0):
            // Stops its own system from the loop, then sends.
            box.system?.stop()
            box.system?.send(.item(state.id, .set(2)))
            return .none
          case .set(let value) where value.isMultiple(of: 2): return .none
          case .set: return .run { _ in await gate.wait() }
          default: return .none
          }
        }
      ])
    let own = Reducer<Inner, InnerEvent> { state, event in
      if case .add(let id) = event { state.items[id] = Child.State(id: id) }
    }
    let system = System(
      initial: Inner(),
      feature: .combine(
        name: "inner", Feature(name: "inner", reducer: own),
        child.lifted(children: \Inner.items, event: ToItem()).feature),
      environment: harness.environment)
    box.system = system
    system.send(.add(1))
    system.send(.add(2))
    system.send(.item(1, .set(1)))
    system.send(.item(2, .set(3)))
    harness.settle()
    #expect(system.runningTaskCount == 2)
    system.send(.item(2, .set(0)))
    system.send(.item(1, .set(4)))
    harness.settle()
    #expect(seen.entries == ["1:set(1)", "2:set(3)", "2:set(0)"])
    gate.open()
    harness.settle()
    #expect(system.runningTaskCount == 0)
    #expect(system.state.items[1]?.value == 1)
    #expect(seen.entries.count == 3)
  }

  /// A child by id that holds the event feature as an optional.
  struct Host: Sendable, Equatable {
    var id = 0
    var sub: Child.State? = nil
  }

  enum HostEvent: Sendable, Equatable {
    case open
    case close
    case sub(Child.Event)
  }

  struct ToSub: EventCase {
    func embed(_ event: Child.Event) -> HostEvent { .sub(event) }
    func extract(_ event: HostEvent) -> Child.Event? {
      if case .sub(let event) = event { event } else { nil }
    }
  }

  struct Hosts: Sendable, Equatable {
    var padding = "the children are not at offset 0"
    var items: TrackedDictionary<Int, Host> = [:]
  }

  enum HostsEvent: Sendable, Equatable {
    case add(Int)
    case item(Int, HostEvent)
  }

  struct ToHost: ChildEventCase {
    func embed(_ id: Int, _ event: HostEvent) -> HostsEvent { .item(id, event) }
    func extract(_ event: HostsEvent) -> (Int, HostEvent)? {
      if case .item(let id, let event) = event { (id, event) } else { nil }
    }
  }

  static func host(gate: Gate, seen: Log<String>) -> Feature<Host, HostEvent> {
    let own = Reducer<Host, HostEvent> { state, event in
      switch event {
      case .open: state.sub = Child.State(id: state.id)
      case .close: state.sub = nil
      case .sub: break
      }
    }
    return .combine(
      name: "host", Feature(name: "host", reducer: own),
      Child.events(gate: gate, seen: seen).lifted(optional: \Host.sub, event: ToSub()).feature)
  }

  @Test(
    "an event feedback inside an optional of a child by id: the optional's going cancels its effect, as it does lifted into one child"
  )
  func eventsInsideAnOptionalOfAChild() {
    let hostEvents: [HostEvent] = [.sub(.set(1)), .open, .sub(.set(3)), .close, .sub(.set(7)), .open, .sub(.set(5))]
    for monitored in [true, false] {
      let byID = Self.run(
        initial: Hosts(), monitored: monitored, events: [HostsEvent.add(1)] + hostEvents.map { .item(1, $0) }
      ) { gate, seen in
        let own = Reducer<Hosts, HostsEvent> { state, event in
          if case .add(let id) = event { state.items[id] = Host(id: id) }
        }
        return .combine(
          name: "hosts", Feature(name: "hosts", reducer: own),
          Self.host(gate: gate, seen: seen).lifted(children: \Hosts.items, event: ToHost()).feature)
      }
      let alone = Self.run(initial: Host(id: 1), monitored: monitored, events: hostEvents) {
        Self.host(gate: $0, seen: $1)
      }
      #expect(byID.seen == ["1:set(3)", "1:set(5)", "1:done(5)"])
      #expect(byID.seen == alone.seen)
      #expect(byID.state.items[1] == alone.state)
      if monitored {
        #expect(byID.started == ["1", "1"])
        #expect(byID.cancelled == ["1"])
        #expect(alone.cancelled.count == 1)
        #expect(byID.finished == alone.finished)
      }
    }
  }

  final class SystemBox: @unchecked Sendable {
    // Sendable: set once before the system runs, read on its loop only.
    weak var system: System<Inner, InnerEvent>?
  }
}
