import FeedbackLoop

/// A statechart (Harel; the semantics of W3C SCXML, article "Statecharts"):
/// states nested in states, parallel regions, history, guarded transitions,
/// entry and exit actions, activities cancelled on exit, delayed transitions
/// on the system's clock, and final states with a "done" event.
///
/// A chart is checked when it is built, and runs as an ordinary `System`
/// (``start(context:feedbacks:isolation:environment:monitor:caller:)``): its
/// reducer takes a whole macrostep per event (run to completion), its
/// activities and delays are keyed feedbacks.
///
/// ```swift
/// let chart = try Statechart<Player, PlayerEvent>("player", initial: "loading") {
///   ChartState("loading") { Transition(on: .loaded, to: "loaded") }
///   ChartState("loaded", initial: "playing") {
///     ChartState("playing") { Transition(on: .pause, to: "paused") }
///     ChartState("paused") { Transition(on: .play, to: "playing") }
///   }
/// }
/// let player = chart.start(context: Player())
/// player.send(.loaded)
/// player.state.isActive("playing")  // true
/// ```
///
/// A chart declares at most 63 states (history states included; the chart
/// itself, its root, is not counted): a configuration is one 64-bit word,
/// the root's bit and one per declared state, so that an event allocates
/// nothing. A 64th state is refused with a ``ChartDeclarationError``.
public struct Statechart<Context: Sendable, Event: Sendable>: Sendable {
  /// The chart's name (the id of its root).
  public let name: String
  let layout: ChartLayout
  let nodes: [ChartNode<Context, Event>]
  let transitions: [ChartTransition<Context, Event>]
  /// The indices of the delayed transitions.
  let delayed: [Int]
  /// The atomic and final states.
  @usableFromInline let leafMask: UInt64
  /// The final states.
  @usableFromInline let finalMask: UInt64
  /// Told the index of every transition taken (transition coverage).
  @usableFromInline var transitionObserver: (@Sendable (Int) -> Void)?
  /// The reducer's tables: the chart compiled once into bit masks per
  /// state and per transition, the event keys, each state's candidate
  /// transitions and each transition's entry set (``ChartTables``).
  @usableFromInline let hot: ChartTables<Context, Event>

  /// Builds and checks a chart whose root enters `initial` first.
  ///
  /// - Throws: ``ChartDeclarationError`` naming the state at fault: a
  ///   transition to an undeclared state, a compound state without an
  ///   initial child, a history state outside a compound state, a state
  ///   declared twice (in two parallel regions, say), a transition out of a
  ///   final state, a negative delay, more than 63 declared states.
  public init(
    _ name: String,
    initial: String,
    @ChartBuilder<Context, Event> content: () -> [ChartElement<Context, Event>]
  ) throws(ChartDeclarationError) {
    let root = DeclaredState<Context, Event>(
      id: name, kind: .plain, initial: initial, historyDefault: nil, elements: content())
    var compiler = ChartCompiler<Context, Event>(chartName: name)
    try compiler.compile(root)
    ChartSnapshotTypes.registerIfDecodable(ChartSnapshot<Context>.self)
    self.name = name
    self.nodes = compiler.nodes
    self.transitions = compiler.transitions
    self.delayed = compiler.transitions.indices.filter {
      if case .after = compiler.transitions[$0].trigger { true } else { false }
    }
    var leafMask: UInt64 = 0
    var finalMask: UInt64 = 0
    for (index, node) in compiler.nodes.enumerated() {
      if node.kind == .atomic || node.kind == .final { leafMask |= 1 << UInt64(index) }
      if node.kind == .final { finalMask |= 1 << UInt64(index) }
    }
    self.leafMask = leafMask
    self.finalMask = finalMask
    self.hot = ChartTables(nodes: compiler.nodes, transitions: compiler.transitions)
    self.layout = ChartLayout(
      names: compiler.nodes.map(\.id),
      parents: compiler.nodes.map(\.parent),
      kinds: compiler.nodes.map(\.kind))
  }

  /// The index of the state `id`, if declared.
  func index(of id: String) -> Int? { layout.index[id] }
}

/// The names and shape of a chart, shared by its states (one reference,
/// no copy per event).
final class ChartLayout: Sendable {
  let names: [String]
  let parents: [Int]
  let kinds: [ChartNodeKind]
  let index: [String: Int]

  init(names: [String], parents: [Int], kinds: [ChartNodeKind]) {
    self.names = names
    self.parents = parents
    self.kinds = kinds
    self.index = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
  }
}

/// What a compiled state is.
enum ChartNodeKind: Sendable, Equatable {
  case atomic
  case compound
  case parallel
  case final
  case history(deep: Bool)
}

/// A compiled state: its place in the tree as indices and bit masks (every
/// index is the state's rank in document order, so a parent's index is
/// below its descendants').
struct ChartNode<Context: Sendable, Event: Sendable>: Sendable {
  let id: String
  var kind: ChartNodeKind
  let parent: Int
  var children: [Int] = []
  /// The children, history states excepted.
  var childMask: UInt64 = 0
  /// Every proper descendant.
  var descendantMask: UInt64 = 0
  var initial: Int = -1
  var historyDefault: Int = -1
  var hasHistory = false
  var transitions: [Int] = []
  var entryActions: [@Sendable (inout Context) -> Void] = []
  var exitActions: [@Sendable (inout Context) -> Void] = []
  var activities: [@Sendable (Context) -> Effect<Event>] = []
  let depth: Int
}

/// What triggers a compiled transition.
enum ChartTrigger<Event: Sendable>: Sendable {
  case event(name: String, matches: @Sendable (Event) -> Bool, value: Event?)
  case after(Duration)
  case done
}

/// A compiled transition: its target resolved, its domain (the states it
/// may exit) computed once.
struct ChartTransition<Context: Sendable, Event: Sendable>: Sendable {
  let source: Int
  let trigger: ChartTrigger<Event>
  let guardName: String?
  /// Its matcher, guard and action, as declared.
  let code: ChartTransitionCode<Context, Event>
  /// -1 for a targetless transition.
  let target: Int
  /// The state whose active descendants the transition exits: the least
  /// common compound ancestor of its source and target (SCXML's domain).
  let domain: Int

  /// What the diagrams write on the arrow.
  var label: String {
    let trigger =
      switch self.trigger {
      case .event(let name, _, _): name
      case .after(let delay): "after \(delay)"
      case .done: "done"
      }
    return guardName.map { "\(trigger) [\($0)]" } ?? trigger
  }
}
