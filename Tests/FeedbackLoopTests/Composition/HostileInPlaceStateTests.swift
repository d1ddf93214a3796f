import FeedbackLoop
import FeedbackLoopScenarios
import FeedbackLoopTesting
import Foundation
import Testing

/// Red-team tests of the lifted feedbacks that read their state in place,
/// where the system stores it (`StateHandler`'s `stored`), rather than from a
/// copy: every lifted query and predicate logs the child state it is given,
/// and each log is checked against the state the monitor reported reduced
/// just before (or the initial state): same values, every state, nothing
/// from another place in memory. Two parents: one of plain values larger
/// than 128 bytes (the fan-out's copied branch), one holding references
/// (the lent branch), each with a child at a stored offset other than 0, a
/// child two levels down, an optional child, and (for the second) children
/// by id, also inside an optional.
@Suite(.runsLeftoverJobs) struct HostileInPlaceStateTests {
  // MARK: - The child

  struct Probe: Sendable, Equatable {
    var id = 0
    var value = 0
    var echo = 0
  }

  enum ProbeEvent: Sendable, Equatable {
    case set(Int)
    case echo(Int)
  }

  /// Where a probe is lifted to.
  enum Shape: String, Sendable, CaseIterable {
    case stored, nested, optional, byID, byIDInOptional
  }

  enum Kind: Sendable { case query, predicate }

  /// What the log holds: a state as the monitor reported it, then what the
  /// lifted feedbacks saw for it.
  enum Entry<State: Sendable>: Sendable {
    case state(State)
    case saw(Kind, Shape, Probe)
  }

  /// The child feature: a query (odd values echo, large ones from an
  /// effect's task) and a predicate (multiples of three echo their
  /// negation once), both logging the state they are given.
  static func probe<State: Sendable>(_ shape: Shape, log: Log<Entry<State>>) -> Feature<Probe, ProbeEvent> {
    Feature(
      name: shape.rawValue,
      reducer: Reducer { state, event in
        switch event {
        case .set(let value): state.value = value
        case .echo(let value): state.echo = value
        }
      },
      feedbacks: [
        .query(
          { probe in
            log.append(.saw(.query, shape, probe))
            return probe.value.isMultiple(of: 2) ? nil : probe.value
          }, name: "query"
        ) { value in
          value > 1000 ? .run { send in send(.echo(value)) } : .send(.echo(value))
        },
        .predicate(
          { probe in
            log.append(.saw(.predicate, shape, probe))
            return probe.value != 0 && probe.value.isMultiple(of: 3) && probe.echo != -probe.value
          }, whenFalse: .keepRunning
        ) { probe in .send(.echo(-probe.value)) },
      ])
  }

  // MARK: - A parent of plain values

  struct Level: Sendable, Equatable {
    var before = 7
    var inner = Probe()
    var after = 9
  }

  /// Plain values only, larger than 128 bytes: the fan-out copies it and
  /// passes where it is stored.
  struct Plain: Sendable, Equatable {
    var p0 = 0, p1 = 1, p2 = 2, p3 = 3, p4 = 4, p5 = 5, p6 = 6, p7 = 7, p8 = 8, p9 = 9
    var stored = Probe(id: 1, value: 1)
    var gap: Int8 = 3
    var maybe: Probe? = Probe(id: 2, value: 3)
    var nested = Level(inner: Probe(id: 3, value: 5))
    var tail = 0
  }

  enum PlainEvent: Sendable, Equatable {
    case stored(ProbeEvent)
    case maybe(ProbeEvent)
    case nested(ProbeEvent)
    case open(Int)
    case close
    case scribble(Int)
    case stop
  }

  static func plainFeature(log: Log<Entry<Plain>>) -> some FeatureProtocol<Plain, PlainEvent> {
    let own = Reducer<Plain, PlainEvent> { state, event in
      switch event {
      case .open(let value): state.maybe = Probe(id: 2, value: value)
      case .close: state.maybe = nil
      case .scribble(let value):
        // Every byte around the children changes.
        (state.p0, state.p1, state.p2, state.p3, state.p4) = (value, -value, value &* 3, ~value, value)
        (state.p5, state.p6, state.p7, state.p8, state.p9) = (value, value, -value, value, ~value)
        (state.gap, state.tail) = (Int8(truncatingIfNeeded: value), value)
        state.nested.before = value
        state.nested.after = -value
      case .stored, .maybe, .nested, .stop: break
      }
    }
    let toStored = EventPath<PlainEvent, ProbeEvent>(
      embed: PlainEvent.stored, extract: { if case .stored(let event) = $0 { event } else { nil } })
    let toMaybe = EventPath<PlainEvent, ProbeEvent>(
      embed: PlainEvent.maybe, extract: { if case .maybe(let event) = $0 { event } else { nil } })
    let toNested = EventPath<PlainEvent, ProbeEvent>(
      embed: PlainEvent.nested, extract: { if case .nested(let event) = $0 { event } else { nil } })
    return Feature(name: "plain", reducer: own)
      .combined(with: probe(.stored, log: log).lifted(state: \Plain.stored, event: toStored))
      .combined(with: probe(.optional, log: log).lifted(optional: \Plain.maybe, event: toMaybe))
      .combined(
        with: probe(.nested, log: log).lifted(state: \Level.inner, event: EventPath<ProbeEvent, ProbeEvent>.identity)
          .lifted(state: \Plain.nested, event: toNested))
  }

  static func expected(_ state: Plain, _ shape: Shape) -> [Int: Probe] {
    switch shape {
    case .stored: [state.stored.id: state.stored]
    case .nested: [state.nested.inner.id: state.nested.inner]
    case .optional: state.maybe.map { [$0.id: $0] } ?? [:]
    case .byID, .byIDInOptional: [:]
    }
  }

  // MARK: - A parent with references

  final class Token: Sendable, Equatable {
    let number: Int
    init(_ number: Int) { self.number = number }
    static func == (left: Token, right: Token) -> Bool { left.number == right.number }
  }

  struct Middle: Sendable, Equatable {
    var before = "the children are not at offset 0"
    var items: TrackedDictionary<Int, Probe> = [:]
  }

  enum MiddleEvent: Sendable, Equatable { case item(Int, ProbeEvent) }

  /// References (an array, an object, strings, dictionaries): the fan-out
  /// lends it from where it is stored.
  struct Heavy: Sendable, Equatable {
    var words: [Int] = [1, 2, 3]
    var token = Token(0)
    var p0 = 0, p1 = 1, p2 = 2, p3 = 3, p4 = 4, p5 = 5
    var stored = Probe(id: 1, value: 1)
    var name = "heavy"
    var maybe: Probe? = Probe(id: 2, value: 3)
    var nested = Level(inner: Probe(id: 3, value: 5))
    var items: TrackedDictionary<Int, Probe> = [10: Probe(id: 10, value: 7), 11: Probe(id: 11, value: 9)]
    var middle: Middle? = Middle(items: [20: Probe(id: 20, value: 11)])
  }

  enum HeavyEvent: Sendable, Equatable {
    case stored(ProbeEvent)
    case maybe(ProbeEvent)
    case nested(ProbeEvent)
    case item(Int, ProbeEvent)
    case deep(Int, ProbeEvent)
    case open(Int)
    case close
    case add(Int)
    case remove(Int)
    case replace([Int])
    case openMiddle
    case closeMiddle
    case addDeep(Int)
    case removeDeep(Int)
    case scribble(Int)
    case stop
  }

  static func heavyFeature(log: Log<Entry<Heavy>>) -> some FeatureProtocol<Heavy, HeavyEvent> {
    let own = Reducer<Heavy, HeavyEvent> { state, event in
      switch event {
      case .open(let value): state.maybe = Probe(id: 2, value: value)
      case .close: state.maybe = nil
      case .add(let id): state.items[id] = Probe(id: id, value: id)
      case .remove(let id): state.items[id] = nil
      case .replace(let ids):
        state.items = TrackedDictionary(
          Dictionary(uniqueKeysWithValues: ids.map { ($0, Probe(id: $0, value: $0 &* 3)) }))
      case .openMiddle: state.middle = Middle(items: [20: Probe(id: 20, value: 21), 21: Probe(id: 21, value: 1)])
      case .closeMiddle: state.middle = nil
      case .addDeep(let id): state.middle?.items[id] = Probe(id: id, value: id)
      case .removeDeep(let id): state.middle?.items[id] = nil
      case .scribble(let value):
        state.words.append(value)
        state.token = Token(value)
        state.name = "heavy \(value)"
        (state.p0, state.p1, state.p2, state.p3, state.p4, state.p5) = (value, ~value, value, -value, value, value)
        state.nested.before = value
        state.middle?.before = "scribbled \(value)"
      case .stored, .maybe, .nested, .item, .deep, .stop: break
      }
    }
    let toStored = EventPath<HeavyEvent, ProbeEvent>(
      embed: HeavyEvent.stored, extract: { if case .stored(let event) = $0 { event } else { nil } })
    let toMaybe = EventPath<HeavyEvent, ProbeEvent>(
      embed: HeavyEvent.maybe, extract: { if case .maybe(let event) = $0 { event } else { nil } })
    let toNested = EventPath<HeavyEvent, ProbeEvent>(
      embed: HeavyEvent.nested, extract: { if case .nested(let event) = $0 { event } else { nil } })
    let toItem = ChildEventPath<HeavyEvent, Int, ProbeEvent>(
      embed: HeavyEvent.item, extract: { if case .item(let id, let event) = $0 { (id, event) } else { nil } })
    let toMiddleItem = ChildEventPath<MiddleEvent, Int, ProbeEvent>(
      embed: MiddleEvent.item, extract: { if case .item(let id, let event) = $0 { (id, event) } else { nil } })
    let toMiddle = EventPath<HeavyEvent, MiddleEvent>(
      embed: { if case .item(let id, let event) = $0 { .deep(id, event) } else { .stop } },
      extract: { if case .deep(let id, let event) = $0 { .item(id, event) } else { nil } })
    return Feature(name: "heavy", reducer: own)
      .combined(with: probe(.stored, log: log).lifted(state: \Heavy.stored, event: toStored))
      .combined(with: probe(.optional, log: log).lifted(optional: \Heavy.maybe, event: toMaybe))
      .combined(
        with: probe(.nested, log: log).lifted(state: \Level.inner, event: EventPath<ProbeEvent, ProbeEvent>.identity)
          .lifted(state: \Heavy.nested, event: toNested)
      )
      .combined(with: probe(.byID, log: log).lifted(children: \Heavy.items, event: toItem))
      .combined(
        with: probe(.byIDInOptional, log: log).lifted(children: \Middle.items, event: toMiddleItem)
          .lifted(optional: \Heavy.middle, event: toMiddle))
  }

  static func expected(_ state: Heavy, _ shape: Shape) -> [Int: Probe] {
    switch shape {
    case .stored: [state.stored.id: state.stored]
    case .nested: [state.nested.inner.id: state.nested.inner]
    case .optional: state.maybe.map { [$0.id: $0] } ?? [:]
    case .byID: Dictionary(uniqueKeysWithValues: state.items.map { ($0.key, $0.value) })
    case .byIDInOptional: Dictionary(uniqueKeysWithValues: (state.middle?.items ?? [:]).map { ($0.key, $0.value) })
    }
  }

  // MARK: - The check

  /// Checks a log: each probe seen equals the probe of the state logged
  /// before it; a child at a stored property or present optional is seen
  /// by both feedbacks at every state; a child by id at least whenever it
  /// is new or changed. Returns the number of states checked.
  @discardableResult
  static func check<State: Sendable>(
    _ entries: [Entry<State>], shapes: [Shape], expected: (State, Shape) -> [Int: Probe],
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> Int {
    var segments: [(state: State, saw: [(Kind, Shape, Probe)])] = []
    for entry in entries {
      switch entry {
      case .state(let state): segments.append((state, []))
      case .saw(let kind, let shape, let probe):
        guard !segments.isEmpty else {
          Issue.record("a feedback saw \(probe) before any state", sourceLocation: sourceLocation)
          continue
        }
        segments[segments.count - 1].saw.append((kind, shape, probe))
      }
    }
    var previous: [Shape: [Int: Probe]] = [:]
    for (index, segment) in segments.enumerated() {
      for shape in shapes {
        let now = expected(segment.state, shape)
        for kind in [Kind.query, .predicate] {
          let seen = segment.saw.filter { $0.0 == kind && $0.1 == shape }.map(\.2)
          for probe in seen where now[probe.id] != probe {
            Issue.record(
              "state \(index), \(shape) \(kind): saw \(probe), the state held \(String(describing: now[probe.id]))",
              sourceLocation: sourceLocation)
          }
          let byID = shape == .byID || shape == .byIDInOptional
          let due = now.filter { !byID || previous[shape]?[$0.key] != $0.value }
          for (id, probe) in due where !seen.contains(probe) {
            Issue.record(
              "state \(index), \(shape) \(kind): child \(id) (\(probe)) not seen; saw \(seen)",
              sourceLocation: sourceLocation)
          }
          if !byID, seen.count != now.count {
            Issue.record(
              "state \(index), \(shape) \(kind): seen \(seen.count) times, expected \(now.count)",
              sourceLocation: sourceLocation)
          }
        }
        previous[shape] = now
      }
    }
    return segments.count
  }

  /// A monitor that logs each reduced state, before the feedbacks see it.
  static func monitor<State: Sendable, Event: Sendable>(
    _ log: Log<Entry<State>>, onReduced: @escaping @Sendable (Event) -> Void = { _ in }
  ) -> SystemMonitor<State, Event> {
    SystemMonitor { activity in
      if case .reduced(let event, _, let state, _) = activity {
        log.append(.state(state))
        onReduced(event)
      }
    }
  }

  static let plainScript: [PlainEvent] = [
    .stored(.set(3)), .scribble(17), .maybe(.set(9)), .nested(.set(6)), .close, .maybe(.set(5)),
    .scribble(-1), .open(15), .stored(.set(1001)), .nested(.set(2003)), .maybe(.set(12)), .close, .open(7),
    .scribble(Int.max), .stored(.set(8)),
  ]

  static let heavyScript: [HeavyEvent] = [
    .stored(.set(3)), .scribble(17), .item(10, .set(9)), .add(12), .item(12, .set(6)), .deep(20, .set(15)),
    .close, .remove(11), .replace([10, 13, 14]), .item(13, .set(1001)), .closeMiddle, .deep(20, .set(3)),
    .openMiddle, .addDeep(22), .deep(22, .set(2005)), .removeDeep(21), .maybe(.set(1)), .open(33),
    .nested(.set(1003)), .scribble(5), .replace([]), .add(1), .item(1, .set(12)), .closeMiddle, .openMiddle,
    .stored(.set(8)),
  ]

  // MARK: - Every shape, both branches

  @Test(
    "G3 lifted feedbacks on a plain state over 128 bytes see, at the start and after each event, the child at a stored offset, two levels down and in an optional, as the state held it"
  )
  func plainStateEveryShape() {
    #expect(_isPOD(Plain.self))
    #expect(MemoryLayout<Plain>.size > 128)
    let harness = Harness()
    let log = Log<Entry<Plain>>()
    let initial = Plain()
    log.append(.state(initial))
    let system = System(
      initial: initial, feature: Self.plainFeature(log: log), environment: harness.environment,
      monitor: Self.monitor(log))
    for event in Self.plainScript {
      system.send(event)
      harness.settle()
    }
    let states = Self.check(log.entries, shapes: [.stored, .nested, .optional], expected: Self.expected)
    // The start, each event, and each echo the effects sent back.
    #expect(states > Self.plainScript.count)
    #expect(system.state.stored == Probe(id: 1, value: 8, echo: 1001))
    #expect(system.state.nested.inner == Probe(id: 3, value: 2003, echo: 2003))
    #expect(system.state.maybe == Probe(id: 2, value: 7, echo: 7))
    system.stop()
  }

  @Test(
    "G3 lifted feedbacks on a state holding references see, at the start and after each event, every shape: stored offset, nested, optional, children by id added, removed and replaced, children by id inside an optional"
  )
  func referenceStateEveryShape() {
    #expect(!_isPOD(Heavy.self))
    let harness = Harness()
    let log = Log<Entry<Heavy>>()
    let initial = Heavy()
    log.append(.state(initial))
    let system = System(
      initial: initial, feature: Self.heavyFeature(log: log), environment: harness.environment,
      monitor: Self.monitor(log))
    for event in Self.heavyScript {
      system.send(event)
      harness.settle()
    }
    let states = Self.check(log.entries, shapes: Shape.allCases, expected: Self.expected)
    #expect(states > Self.heavyScript.count)
    let state = system.state
    #expect(state.items[1] == Probe(id: 1, value: 12, echo: -12))
    #expect(state.middle?.items[20] == Probe(id: 20, value: 21, echo: -21))
    #expect(state.middle?.items[21] == Probe(id: 21, value: 1, echo: 1))
    #expect(state.nested.inner == Probe(id: 3, value: 1003, echo: 1003))
    #expect(state.maybe == Probe(id: 2, value: 33, echo: -33))
    system.stop()
  }

  @Test(
    "G1 G3 the start pass gives each lifted feedback the initial child states, absent optionals included, before any event"
  )
  func startPassEveryShape() {
    let harness = Harness()
    for maybe in [nil, Probe(id: 2, value: 9)] {
      let log = Log<Entry<Heavy>>()
      var initial = Heavy()
      initial.maybe = maybe
      if maybe == nil { initial.middle = nil }
      log.append(.state(initial))
      let system = System(
        initial: initial, feature: Self.heavyFeature(log: log), environment: harness.environment,
        monitor: Self.monitor(log))
      // Before any settle: only what the start pass and `.send` effects did.
      let entries = log.entries
      let firstReduced = entries.dropFirst().firstIndex { if case .state = $0 { true } else { false } }
      let start = Array(entries[..<(firstReduced ?? entries.endIndex)])
      Self.check(start, shapes: Shape.allCases, expected: Self.expected)
      let sawAtStart = start.filter { if case .saw = $0 { true } else { false } }.count
      // Query and predicate for: stored, nested, (optional), two children, (one deep child).
      #expect(sawAtStart == (maybe == nil ? 8 : 12))
      harness.settle()
      Self.check(log.entries, shapes: Shape.allCases, expected: Self.expected)
      system.stop()
    }
    let plainLog = Log<Entry<Plain>>()
    var plain = Plain()
    plain.maybe = nil
    plainLog.append(.state(plain))
    let system = System(
      initial: plain, feature: Self.plainFeature(log: plainLog), environment: harness.environment,
      monitor: Self.monitor(plainLog))
    harness.settle()
    Self.check(plainLog.entries, shapes: [.stored, .nested, .optional], expected: Self.expected)
    system.stop()
  }

  // MARK: - Hostile handlers and threads

  @Test(
    "G3 G9 a system stopped by its monitor on a reduced state, or by a lifted query, ends its pass: what the lifted feedbacks saw before the stop is the stored state's"
  )
  func stopFromMonitorAndFromQuery() {
    let harness = Harness()
    // The monitor stops the system when `.stop` is reduced.
    let log = Log<Entry<Heavy>>()
    let ref = Ref<System<Heavy, HeavyEvent>>()
    let initial = Heavy()
    log.append(.state(initial))
    let system = System(
      initial: initial, feature: Self.heavyFeature(log: log), environment: harness.environment,
      monitor: Self.monitor(log) { event in if event == .stop { ref.value?.stop() } })
    ref.value = system
    for event in Self.heavyScript.prefix(8) + [.stop] + Self.heavyScript.suffix(4) {
      system.send(event)
      harness.settle()
    }
    #expect(system.isStopped)
    let entries = log.entries
    // The stopping state is the last one logged, and no feedback saw it.
    Self.check(Array(entries.dropLast()), shapes: Shape.allCases, expected: Self.expected)
    if case .saw = entries.last { Issue.record("a feedback saw the state of the stopping reduction") }
    ref.value = nil

    // A lifted query stops the system from the middle of a pass.
    let stopLog = Log<Entry<Heavy>>()
    let stopper = Ref<System<Heavy, HeavyEvent>>()
    let stoppingLog = Log<Entry<Heavy>>()
    let stopping = Feature<Probe, ProbeEvent>(
      name: "stopper", reducer: Reducer { _, _ in },
      feedbacks: [
        .query(
          { probe in
            stoppingLog.append(.saw(.query, .byID, probe))
            if probe.value == 99 { stopper.value?.stop() }
            return nil as Int?
          }, name: "stop"
        ) { _ in .none }
      ])
    let toItem = ChildEventPath<HeavyEvent, Int, ProbeEvent>(
      embed: HeavyEvent.item, extract: { if case .item(let id, let event) = $0 { (id, event) } else { nil } })
    stopLog.append(.state(initial))
    let second = System(
      initial: initial,
      feature: stopping.lifted(children: \Heavy.items, event: toItem)
        .combined(with: Self.heavyFeature(log: stopLog)),
      environment: harness.environment, monitor: Self.monitor(stopLog))
    stopper.value = second
    for event: HeavyEvent in [.item(10, .set(3)), .add(12), .item(12, .set(99)), .item(10, .set(5))] {
      second.send(event)
      harness.settle()
    }
    #expect(second.isStopped)
    // The stopper saw 99, and its handler fed no other child after it: the
    // pass ends at the child whose query stopped the system.
    let stopperEntries = stoppingLog.entries
    let stopped = stopperEntries.firstIndex { if case .saw(_, _, let probe) = $0 { probe.value == 99 } else { false } }
    #expect(stopped != nil)
    if let stopped { #expect(stopped == stopperEntries.count - 1, "the stopper's handler went on after stop()") }
    // The stopping pass went no further than the stopper.
    Self.check(Array(stopLog.entries.dropLast()), shapes: Shape.allCases, expected: Self.expected)
    if case .state(let last) = stopLog.entries.last {
      #expect(last.items[12]?.value == 99)
    } else {
      Issue.record("a lifted feedback after the stopper saw the stopping state")
    }
    stopper.value = nil
  }

  @Test(
    "G9 the last reference to a system released from inside a lifted query by id, mid-pass: the pass ends, nothing reads freed state, and the system goes"
  )
  func releaseFromInsideAQuery() {
    let harness = Harness()
    let log = Log<Entry<Heavy>>()
    let holder = Ref<System<Heavy, HeavyEvent>>()
    weak var weakSystem: System<Heavy, HeavyEvent>?
    let releasing = Feature<Probe, ProbeEvent>(
      name: "releaser", reducer: Reducer { _, _ in },
      feedbacks: [
        .query(
          { probe in
            if probe.echo == 1001 {
              let last = holder.value
              holder.value = nil
              _ = consume last
            }
            return nil as Int?
          }, name: "release"
        ) { _ in .none }
      ])
    let toItem = ChildEventPath<HeavyEvent, Int, ProbeEvent>(
      embed: HeavyEvent.item, extract: { if case .item(let id, let event) = $0 { (id, event) } else { nil } })
    do {
      let initial = Heavy()
      log.append(.state(initial))
      let system = System(
        initial: initial,
        feature: Self.heavyFeature(log: log).combined(with: releasing.lifted(children: \Heavy.items, event: toItem)),
        environment: harness.environment, monitor: Self.monitor(log))
      holder.value = system
      weakSystem = system
      for event in Self.heavyScript.prefix(6) { system.send(event) }
      harness.settle()
      // Its effect's task echoes from the executor, when only `holder` holds the system.
      system.send(.item(10, .set(1001)))
    }
    #expect(weakSystem != nil)
    harness.settle()
    #expect(weakSystem == nil)
    let entries = log.entries
    Self.check(entries, shapes: Shape.allCases, expected: Self.expected)
    if case .state(let last) = entries.last { #expect(last.items[10]?.echo == 1001) }
  }

  /// Counts, from any thread.
  final class Tally: @unchecked Sendable {
    // Sendable: `count` is read and written only while `lock` is held.
    private let lock = NSLock()
    private var count = 0
    func add() -> Int {
      lock.withLock {
        count += 1; return count
      }
    }
  }

  static func isEcho(_ event: HeavyEvent) -> Bool {
    switch event {
    case .stored(.echo), .maybe(.echo), .nested(.echo), .item(_, .echo), .deep(_, .echo): true
    default: false
    }
  }

  @Test(
    "G3 G15 threads that read the state in a loop and threads that send while lifted feedbacks read it in place: every probe seen is the reduced state's"
  )
  func readersAndSendersOnOtherThreads() {
    let log = Log<Entry<Heavy>>()
    let initial = Heavy()
    log.append(.state(initial))
    let (senders, perSender, scriptLength) = (3, 100, 10)
    let tally = Tally()
    let allReduced = DispatchSemaphore(value: 0)
    // What the system logs (the events for children that are gone) goes
    // to a recorder, so that a passing run stays quiet.
    let system = System(
      initial: initial, feature: Self.heavyFeature(log: log),
      environment: SystemEnvironment(logger: LogRecorder().logger),
      monitor: Self.monitor(log) { event in
        if !Self.isEcho(event), tally.add() == senders * perSender * scriptLength { allReduced.signal() }
      })
    let done = Ref<Bool>()
    let readers = DispatchGroup()
    let reading = DispatchSemaphore(value: 0)
    for _ in 0..<2 {
      DispatchQueue.global().async(group: readers) {
        var reads = system.state.stored.id == 1 ? 1 : 0
        reading.signal()
        while done.value != true {
          let state = system.state
          // A reader's copy is whole.
          if state.stored.id != 1 || state.nested.inner.id != 3 { Issue.record("torn read \(state.stored)") }
          reads += 1
        }
        #expect(reads > 0)
      }
    }
    // The readers read before the first send and until the last reduction.
    reading.wait()
    reading.wait()
    DispatchQueue.concurrentPerform(iterations: senders) { sender in
      for index in 0..<perSender {
        // Below 1000: every effect is immediate (`.send`).
        let value = sender * 300 + index
        let script: [HeavyEvent] = [
          .stored(.set(value)), .item(10, .set(value)), .scribble(value), .add(100 + index % 7),
          .deep(20, .set(value)), index % 5 == 0 ? .closeMiddle : .openMiddle, .remove(100 + index % 5),
          index % 3 == 0 ? .close : .open(value), .maybe(.set(value | 1)), .nested(.set(value)),
        ]
        system.send(contentsOf: script)
      }
    }
    allReduced.wait()
    done.value = true
    readers.wait()
    let states = Self.check(log.entries, shapes: Shape.allCases, expected: Self.expected)
    #expect(states > senders * perSender * scriptLength)
    system.stop()
  }

  @Test(
    "G2 G3 two systems feeding each other from their lifted effects and queries, each loop run inline in the other's pass: each lifted feedback sees its own system's stored state"
  )
  func twoSystemsFeedingEachOther() {
    let harness = Harness()
    let (plainLog, heavyLog) = (Log<Entry<Plain>>(), Log<Entry<Heavy>>())
    let (plainRef, heavyRef) = (Ref<System<Plain, PlainEvent>>(), Ref<System<Heavy, HeavyEvent>>())
    let toStored = EventPath<PlainEvent, ProbeEvent>(
      embed: PlainEvent.stored, extract: { if case .stored(let event) = $0 { event } else { nil } })
    let toItem = ChildEventPath<HeavyEvent, Int, ProbeEvent>(
      embed: HeavyEvent.item, extract: { if case .item(let id, let event) = $0 { (id, event) } else { nil } })
    // Plain's stored child forwards its values below 40 to heavy's child 10, plus one.
    let forwarder = Feature<Probe, ProbeEvent>(
      name: "forward", reducer: Reducer { _, _ in },
      feedbacks: [
        .query(
          { $0.value < 40 ? $0.value : nil }, name: "forward"
        ) { value in
          // Heavy's loop runs inline, here, in the middle of plain's pass.
          heavyRef.value?.send(.item(10, .set(value + 1)))
          return .none
        }
      ])
    // Heavy's child 10 sends its values back, plus one, to plain's stored child.
    let backward = Feature<Probe, ProbeEvent>(
      name: "back", reducer: Reducer { _, _ in },
      feedbacks: [
        .query(
          { $0.value < 40 ? $0.value : nil }, name: "back"
        ) { value in
          // Plain's loop is this thread's: queued.
          plainRef.value?.send(.stored(.set(value + 1)))
          return .none
        }
      ])
    var plainInitial = Plain()
    plainInitial.stored.value = 50
    var heavyInitial = Heavy()
    heavyInitial.items[10]?.value = 50
    plainLog.append(.state(plainInitial))
    heavyLog.append(.state(heavyInitial))
    let plain = System(
      initial: plainInitial,
      feature: forwarder.lifted(state: \Plain.stored, event: toStored).combined(with: Self.plainFeature(log: plainLog)),
      environment: harness.environment, monitor: Self.monitor(plainLog))
    let heavy = System(
      initial: heavyInitial,
      feature: backward.lifted(children: \Heavy.items, event: toItem).combined(with: Self.heavyFeature(log: heavyLog)),
      environment: harness.environment, monitor: Self.monitor(heavyLog))
    plainRef.value = plain
    heavyRef.value = heavy
    harness.settle()
    plain.send(.stored(.set(0)))
    harness.settle()
    #expect(plain.state.stored.value == 40)
    #expect(heavy.state.items[10]?.value == 39)
    Self.check(plainLog.entries, shapes: [.stored, .nested, .optional], expected: Self.expected)
    Self.check(heavyLog.entries, shapes: Shape.allCases, expected: Self.expected)
    plainRef.value = nil
    heavyRef.value = nil
    plain.stop()
    heavy.stop()
  }
}
