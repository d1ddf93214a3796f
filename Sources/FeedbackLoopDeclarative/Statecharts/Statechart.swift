import FeedbackLoop

/// A statechart (Harel; the semantics of W3C SCXML, article "Statecharts"):
/// states nested in states, parallel regions, history, guarded transitions,
/// entry and exit actions, activities cancelled on exit, delayed transitions
/// on the system's clock, and final states with a "done" event.
///
/// A chart is checked when it is built, and runs as an ordinary `System`
/// (``system(context:feedbacks:isolation:environment:monitor:caller:)``): its
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
/// let player = chart.system(context: Player())
/// player.send(.loaded)
/// player.state.isActive("playing")  // true
/// ```
///
/// A chart holds at most 63 states (history states included): a
/// configuration is one 64-bit word, so that an event allocates nothing.
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
  /// The reducer's tables: the same facts as `nodes` and `transitions`, in
  /// arrays of plain values, so that an event copies no node or transition
  /// (each copy retained every array and closure it holds).
  @usableFromInline let hot: ChartTables<Context, Event>

  /// Builds and checks a chart whose root enters `initial` first.
  ///
  /// - Throws: ``ChartDeclarationError`` naming the state at fault: a
  ///   transition to an undeclared state, a compound state without an
  ///   initial child, a history state outside a compound state, a state
  ///   declared twice (in two parallel regions, say), a transition out of a
  ///   final state.
  public init(
    _ name: String,
    initial: String,
    @ChartBuilder<Context, Event> content: () -> [ChartElement<Context, Event>]
  ) throws(ChartDeclarationError) {
    let root = DeclaredState<Context, Event>(
      id: name, kind: .plain, initial: initial, historyDefault: nil, elements: content())
    var compiler = ChartCompiler<Context, Event>(chartName: name)
    try compiler.compile(root)
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
  case event(name: String, matches: @Sendable (Event) -> Bool)
  case after(Duration)
  case done
}

/// A compiled transition: its target resolved, its domain (the states it
/// may exit) computed once.
struct ChartTransition<Context: Sendable, Event: Sendable>: Sendable {
  let source: Int
  let trigger: ChartTrigger<Event>
  let guardName: String?
  let condition: (@Sendable (Context, Event?) -> Bool)?
  /// -1 for a targetless transition.
  let target: Int
  /// The state whose active descendants the transition exits: the least
  /// common compound ancestor of its source and target (SCXML's domain).
  let domain: Int
  let action: (@Sendable (inout Context, Event?) -> Void)?

  /// What the diagrams write on the arrow.
  var label: String {
    let trigger =
      switch self.trigger {
      case .event(let name, _): name
      case .after(let delay): "after \(delay)"
      case .done: "done"
      }
    return guardName.map { "\(trigger) [\($0)]" } ?? trigger
  }
}

/// The reducer's view of a chart: per state and per transition, arrays of
/// plain values, and the closures apart.
@usableFromInline
final class ChartTables<Context: Sendable, Event: Sendable>: Sendable {
  @usableFromInline let parent: [Int]
  @usableFromInline let isParallel: UInt64
  @usableFromInline let isCompound: UInt64
  @usableFromInline let isFinal: UInt64
  @usableFromInline let childMask: [UInt64]
  @usableFromInline let descendantMask: [UInt64]
  @usableFromInline let initial: [Int]
  @usableFromInline let historyDefault: [Int]
  /// History states, as (index, deep) pairs by index; -1 when not history.
  @usableFromInline let historyDepth: [Int8]
  @usableFromInline let hasHistory: UInt64
  @usableFromInline let hasEntryActions: UInt64
  @usableFromInline let hasExitActions: UInt64
  /// The transitions of state `i` are `transitionList[transitionStart[i]..<transitionStart[i + 1]]`.
  @usableFromInline let transitionStart: [Int]
  @usableFromInline let transitionList: [Int]
  @usableFromInline let source: [Int]
  @usableFromInline let target: [Int]
  @usableFromInline let domain: [Int]
  /// 0: an event, 1: a delay, 2: done.
  @usableFromInline let triggerKind: [UInt8]
  @usableFromInline let matches: [(@Sendable (Event) -> Bool)?]
  @usableFromInline let condition: [(@Sendable (Context, Event?) -> Bool)?]
  @usableFromInline let action: [(@Sendable (inout Context, Event?) -> Void)?]
  @usableFromInline let entryActions: [[@Sendable (inout Context) -> Void]]
  @usableFromInline let exitActions: [[@Sendable (inout Context) -> Void]]

  init(nodes: [ChartNode<Context, Event>], transitions: [ChartTransition<Context, Event>]) {
    parent = nodes.map(\.parent)
    func mask(_ test: (ChartNode<Context, Event>) -> Bool) -> UInt64 {
      var mask: UInt64 = 0
      for (index, node) in nodes.enumerated() where test(node) { mask |= 1 << UInt64(index) }
      return mask
    }
    isParallel = mask { $0.kind == .parallel }
    isCompound = mask { $0.kind == .compound }
    isFinal = mask { $0.kind == .final }
    hasHistory = mask(\.hasHistory)
    hasEntryActions = mask { !$0.entryActions.isEmpty }
    hasExitActions = mask { !$0.exitActions.isEmpty }
    childMask = nodes.map(\.childMask)
    descendantMask = nodes.map(\.descendantMask)
    initial = nodes.map(\.initial)
    historyDefault = nodes.map(\.historyDefault)
    historyDepth = nodes.map { node in
      if case .history(let deep) = node.kind { deep ? 1 : 0 } else { -1 }
    }
    var start = [0]
    var list: [Int] = []
    for node in nodes {
      list += node.transitions
      start.append(list.count)
    }
    transitionStart = start
    transitionList = list
    source = transitions.map(\.source)
    target = transitions.map(\.target)
    domain = transitions.map(\.domain)
    triggerKind = transitions.map { transition in
      switch transition.trigger {
      case .event: 0
      case .after: 1
      case .done: 2
      }
    }
    matches = transitions.map { transition in
      if case .event(_, let matches) = transition.trigger { matches } else { nil }
    }
    condition = transitions.map(\.condition)
    action = transitions.map(\.action)
    entryActions = nodes.map(\.entryActions)
    exitActions = nodes.map(\.exitActions)
  }
}
