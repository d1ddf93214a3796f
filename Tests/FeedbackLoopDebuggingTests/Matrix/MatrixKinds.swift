import FeedbackLoop
import FeedbackLoopCycle
import FeedbackLoopCycleDebugging
import FeedbackLoopDebugging
import FeedbackLoopDeclarative
import FeedbackLoopDeclarativeDebugging
import FeedbackLoopScenarios

/// One kind of system the library makes, as the matrix drives it: started
/// on the harness's clock, a scripted session sent from outside (each event
/// changes the state), its reducer for replay, an edit as the monitor's page
/// makes one, and its diagram where it has one. The user's own types are
/// `Codable`; nothing else is written for the tools.
protocol MatrixKind {
  associatedtype State: Codable & Equatable & Sendable
  associatedtype Event: Codable & Equatable & AnyStateTravelEvent

  static func start(_ harness: Harness, monitor: SystemMonitor<State, Event>) -> System<State, Event>
  static func script(_ system: System<State, Event>, _ harness: Harness)
  static func reduce(_ state: inout State, _ event: Event)
  static func edited(_ state: State) -> State
  /// The diagram the monitor's page draws, and what it must show.
  static var diagram: (text: String, shows: [String])? { get }
  static var fixtureSuite: String { get }
  static var stateType: String { get }
  static var eventType: String { get }
  static var reducer: String { get }
}

/// A plain `System`: the user's reducer, wrapped for time travel.
enum PlainKind: MatrixKind {
  struct State: Codable, Equatable, Sendable {
    var total = 0
    var added: [Int] = []
  }

  enum Event: Codable, Equatable, TimeTravelEvent {
    case add(Int)
    case travel(to: State)

    var travelDestination: State? { if case .travel(let state) = self { state } else { nil } }
  }

  static let reduceTravelling = TimeTravel.reducer { (state: inout State, event: Event) in
    if case .add(let amount) = event {
      state.total += amount
      state.added.append(amount)
    }
  }

  static func reduce(_ state: inout State, _ event: Event) { reduceTravelling(&state, event) }

  static func start(_ harness: Harness, monitor: SystemMonitor<State, Event>) -> System<State, Event> {
    System(initial: State(), reduce: reduceTravelling, environment: harness.environment, monitor: monitor)
  }

  static func script(_ system: System<State, Event>, _ harness: Harness) {
    for amount in [1, 2, 3] { system.send(.add(amount)) }
  }

  static func edited(_ state: State) -> State {
    var state = state
    state.total = 99
    return state
  }

  static var diagram: (text: String, shows: [String])? { nil }
  static let fixtureSuite = "MatrixPlainFixtures"
  static let stateType = "PlainKind.State"
  static let eventType = "PlainKind.Event"
  static let reducer = "PlainKind.reduce"
}

/// A system declared with the DSL: its transitions are its reducer.
enum DeclaredKind: MatrixKind {
  struct State: Codable, Equatable, Sendable {
    var level: Int
  }

  enum Event: Codable, Equatable, TimeTravelEvent {
    case up, down
    case travel(to: State)

    var travelDestination: State? { if case .travel(let state) = self { state } else { nil } }
  }

  static let declaration = DeclarativeSystem<State, Event> {
    InitialState { State(level: 0) }
    Transitions {
      From(.any) { current in
        On(Event.up, transitionTo: .any) { State(level: current().level + 1) }
        On(Event.down, transitionTo: .any) { State(level: current().level - 1) }
        On(.case("travel", \Event.travelDestination), transitionTo: .any) { destination in destination }
      }
    }
  }

  static let reducing = declaration.transitions.reducer

  static func reduce(_ state: inout State, _ event: Event) { reducing.reduce(&state, event) }

  static func start(_ harness: Harness, monitor: SystemMonitor<State, Event>) -> System<State, Event> {
    declaration.start(environment: harness.environment, monitor: monitor)
  }

  static func script(_ system: System<State, Event>, _ harness: Harness) {
    for event in [Event.up, .up, .down, .up] { system.send(event) }
  }

  static func edited(_ state: State) -> State { State(level: 42) }

  static var diagram: (text: String, shows: [String])? {
    (declaration.diagram.mermaid, ["stateDiagram-v2", "up", "down"])
  }
  static let fixtureSuite = "MatrixDeclaredFixtures"
  static let stateType = "DeclaredKind.State"
  static let eventType = "DeclaredKind.Event"
  static let reducer = "DeclaredKind.reduce"
}

/// A statechart's system: the chart's own state and event types.
enum ChartKind: MatrixKind {
  struct Context: Codable, Equatable, Sendable {
    var plays = 0
  }

  enum Press: String, Codable, Equatable, Sendable {
    case load, play, pause, stop
  }

  typealias State = ChartSnapshot<Context>
  typealias Event = ChartEvent<Press>

  static let chart = try! Statechart<Context, Press>("matrix", initial: "idle") {
    ChartState("idle") { Transition(on: .load, to: "loaded") }
    ChartState("loaded", initial: "paused") {
      Transition(on: .stop, to: "idle")
      ChartState("paused") { Transition(on: .play, to: "playing") }
      ChartState("playing") {
        OnEntry { $0.plays += 1 }
        Transition(on: .pause, to: "paused")
      }
    }
  }

  static func reduce(_ state: inout State, _ event: Event) { chart.reduce(&state, event) }

  static func start(_ harness: Harness, monitor: SystemMonitor<State, Event>) -> System<State, Event> {
    chart.start(context: Context(), environment: harness.environment, monitor: monitor)
  }

  static func script(_ system: System<State, Event>, _ harness: Harness) {
    for press in [Press.load, .play, .pause, .play] { system.send(press) }
  }

  static func edited(_ state: State) -> State {
    var state = state
    state.context.plays = 42
    return state
  }

  static var diagram: (text: String, shows: [String])? {
    (chart.diagram.mermaid, ["state loaded {", "paused --> playing"])
  }
  static let fixtureSuite = "MatrixChartFixtures"
  static let stateType = "ChartKind.State"
  static let eventType = "ChartKind.Event"
  static let reducer = "ChartKind.reduce"
}

/// A Cycle application: a router's reel and `CycleEvent`s.
enum CycleKind: MatrixKind {
  struct Frame: Codable, Equatable, Sendable {
    var count = 0
  }

  enum Key: Codable, Equatable, Sendable {
    case plus, minus
  }

  /// A driver that renders nothing and reports no event of its own while
  /// the system runs: the session's keys are sent from outside, as a test
  /// sends them.
  struct Keys: Driver {
    let events: AsyncStream<Key>
    let keys: AsyncStream<Key>.Continuation

    init() { (events, keys) = AsyncStream.makeStream() }

    func render(_ model: Int) {}
  }

  typealias State = Reel<Frame>
  typealias Event = CycleEvent

  static func router() -> Router<Frame> {
    Router(seed: Frame(), memory: 2) { _ in
      [
        Wire("keys", driver: Keys(), model: \.count) { key, frames in
          var frame = frames.current
          frame.count += key == .plus ? 1 : -1
          return .frame(frame)
        }
      ]
    }
  }

  /// The router whose reducer replays and checks fixtures; never started.
  static let reducing = router()

  static func reduce(_ state: inout State, _ event: Event) { reducing.reduce(&state, event) }

  static func start(_ harness: Harness, monitor: SystemMonitor<State, Event>) -> System<State, Event> {
    router().start(environment: harness.environment, monitor: monitor)
  }

  static func script(_ system: System<State, Event>, _ harness: Harness) {
    for key in [Key.plus, .plus, .minus, .plus] { system.send(.driver("keys", key)) }
  }

  static func edited(_ state: State) -> State {
    Reel(queue: [Frame(count: 42)], previous: [Frame(count: 41)], memory: 2)
  }

  static var diagram: (text: String, shows: [String])? {
    (reducing.mermaidDiagram, ["[*] --> frame", "frame --> driver_keys: model", "driver_keys --> frame: events"])
  }
  static let fixtureSuite = "MatrixCycleFixtures"
  static let stateType = "CycleKind.State"
  static let eventType = "CycleKind.Event"
  /// The router's reducer as a generated test spells it: evaluated before
  /// the test decodes, it makes the router, and with it the drivers' event
  /// types known to the decoder, whichever test runs first (a reference to
  /// `reduce` would make the router only at its first call, after the
  /// decode).
  static let reducer = "CycleKind.reducing.reduce"
}

/// Two counters lifted into one parent, composed as features.
enum ComposedKind: MatrixKind {
  struct Counter: Codable, Equatable, Sendable {
    var value = 0
  }

  enum CounterEvent: Codable, Equatable, Sendable {
    case increment, decrement
  }

  struct State: Codable, Equatable, Sendable {
    var left = Counter()
    var right = Counter()
  }

  enum Event: Codable, Equatable, TimeTravelEvent {
    case left(CounterEvent)
    case right(CounterEvent)
    case travel(to: State)

    var travelDestination: State? { if case .travel(let state) = self { state } else { nil } }
  }

  static let counter = Reducer<Counter, CounterEvent> { counter, event in
    counter.value += event == .increment ? 1 : -1
  }

  static let feature = Feature.combine(
    name: "app",
    Feature(name: "left", reducer: counter).lifted(
      state: \State.left,
      event: EventPath(embed: Event.left, extract: { if case .left(let event) = $0 { event } else { nil } })
    ).feature,
    Feature(name: "right", reducer: counter).lifted(
      state: \State.right,
      event: EventPath(embed: Event.right, extract: { if case .right(let event) = $0 { event } else { nil } })
    ).feature,
    Feature(name: "time travel", reducer: Reducer(TimeTravel.reducer { (_: inout State, _: Event) in })))

  static func reduce(_ state: inout State, _ event: Event) { feature.reducer.reduce(&state, event) }

  static func start(_ harness: Harness, monitor: SystemMonitor<State, Event>) -> System<State, Event> {
    System(initial: State(), feature: feature, environment: harness.environment, monitor: monitor)
  }

  static func script(_ system: System<State, Event>, _ harness: Harness) {
    for event in [Event.left(.increment), .right(.decrement), .left(.increment)] { system.send(event) }
  }

  static func edited(_ state: State) -> State {
    var state = state
    state.right.value = 42
    return state
  }

  static var diagram: (text: String, shows: [String])? { nil }
  static let fixtureSuite = "MatrixComposedFixtures"
  static let stateType = "ComposedKind.State"
  static let eventType = "ComposedKind.Event"
  static let reducer = "ComposedKind.reduce"
}

/// A parent that runs a child system per download; a child that has
/// counted two ticks reports the download finished.
enum ParentKind: MatrixKind {
  enum ChildEvent: Codable, Equatable, Sendable { case tick }

  struct State: Codable, Equatable, Sendable {
    var downloads: [Int] = []
    var ticks = 0
    var finished: [Int] = []
  }

  enum Event: Codable, Equatable, TimeTravelEvent {
    case start(Int)
    case tick(Int)
    case finished(Int)
    case travel(to: State)

    var travelDestination: State? { if case .travel(let state) = self { state } else { nil } }
  }

  static let reduceTravelling = TimeTravel.reducer { (state: inout State, event: Event) in
    switch event {
    case .start(let id): state.downloads.append(id)
    case .tick: state.ticks += 1
    case .finished(let id):
      state.downloads.removeAll { $0 == id }
      state.finished.append(id)
    case .travel: break
    }
  }

  static func reduce(_ state: inout State, _ event: Event) { reduceTravelling(&state, event) }

  static func start(_ harness: Harness, monitor: SystemMonitor<State, Event>) -> System<State, Event> {
    let children = ChildSystems<Int, Int, ChildEvent>()
    let environment = harness.environment
    let downloads = Feedback<State, Event>.childSystems(
      children, for: { state in Dictionary(uniqueKeysWithValues: state.downloads.map { ($0, true) }) },
      make: { _, _ in System(initial: 0, reduceReturning: { count, _ in count + 1 }, environment: environment) },
      route: { if case .tick(let id) = $0 { (id, .tick) } else { nil } },
      outcome: { id, ticks in ticks == 2 ? .finished(id) : nil })
    return System(
      initial: State(), reduce: reduceTravelling, feedbacks: [downloads], environment: environment, monitor: monitor)
  }

  static func script(_ system: System<State, Event>, _ harness: Harness) {
    for event in [Event.start(1), .start(2), .tick(1), .tick(1)] {
      system.send(event)
      harness.settle()
    }
  }

  static func edited(_ state: State) -> State {
    var state = state
    state.finished = [7]
    return state
  }

  static var diagram: (text: String, shows: [String])? { nil }
  static let fixtureSuite = "MatrixParentFixtures"
  static let stateType = "ParentKind.State"
  static let eventType = "ParentKind.Event"
  static let reducer = "ParentKind.reduce"
}
