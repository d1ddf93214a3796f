/// Turns a declared chart into indices and masks, and rejects the mistakes
/// ``ChartDeclarationError`` lists, each with a message naming the state.
struct ChartCompiler<Context: Sendable, Event: Sendable> {
  let chartName: String
  var nodes: [ChartNode<Context, Event>] = []
  var transitions: [ChartTransition<Context, Event>] = []
  private var pending: [(source: Int, declared: DeclaredTransition<Context, Event>)] = []
  private var pendingInitial: [(state: Int, name: String)] = []
  private var pendingHistoryDefault: [(state: Int, name: String)] = []
  private var indexByID: [String: Int] = [:]
  /// For each state, the parallel region (child of a parallel state) it
  /// was declared in, to say so when two regions declare one state.
  private var regionOf: [Int: Int] = [:]

  /// The states a chart may declare, history states included. The chart's
  /// root is a state of its own in the configuration word, so the 64 bits
  /// of a configuration hold the root and 63 declared states.
  static var maximumStates: Int { 63 }

  init(chartName: String) { self.chartName = chartName }

  private func fail(_ message: String) -> ChartDeclarationError {
    ChartDeclarationError(message: "statechart \"\(chartName)\": \(message)")
  }

  mutating func compile(_ root: DeclaredState<Context, Event>) throws(ChartDeclarationError) {
    try add(root, parent: -1, depth: 0, region: nil)
    // The root, the chart itself, is the first node and not a declared state.
    let declared = nodes.count - 1
    if declared > Self.maximumStates {
      throw fail(
        "\(declared) states declared; a chart holds at most \(Self.maximumStates) (history states included), "
          + "so that its configuration fits in one 64-bit word beside its root")
    }
    for (state, name) in pendingInitial {
      guard let child = indexByID[name] else {
        throw fail("the initial state \"\(name)\" of \"\(nodes[state].id)\" is not declared")
      }
      guard nodes[child].parent == state, nodes[child].kind != .history(deep: false),
        nodes[child].kind != .history(deep: true)
      else {
        throw fail("the initial state \"\(name)\" of \"\(nodes[state].id)\" is not one of its child states")
      }
      nodes[state].initial = child
    }
    for (state, name) in pendingHistoryDefault {
      guard let target = indexByID[name] else {
        throw fail("the default \"\(name)\" of the history state \"\(nodes[state].id)\" is not declared")
      }
      nodes[state].historyDefault = target
    }
    for index in nodes.indices.reversed() where nodes[index].parent >= 0 {
      let parent = nodes[index].parent
      nodes[parent].descendantMask |= (1 << UInt64(index)) | nodes[index].descendantMask
    }
    for (source, declared) in pending {
      try resolve(declared, from: source)
    }
  }

  private mutating func add(
    _ declared: DeclaredState<Context, Event>, parent: Int, depth: Int, region: Int?
  ) throws(ChartDeclarationError) {
    if let existing = indexByID[declared.id] {
      if let first = regionOf[existing], let second = region, first != second {
        throw fail(
          "the state \"\(declared.id)\" is declared in two parallel regions, \"\(nodes[first].id)\" and "
            + "\"\(nodes[second].id)\"")
      }
      throw fail("the state \"\(declared.id)\" is declared twice")
    }
    let index = nodes.count
    indexByID[declared.id] = index
    if let region { regionOf[index] = region }
    let childStates = declared.elements.compactMap { element -> DeclaredState<Context, Event>? in
      if case .state(let state) = element.kind { state } else { nil }
    }
    let hasChildren = childStates.contains { if case .history = $0.kind { false } else { true } }
    let kind: ChartNodeKind
    switch declared.kind {
    case .plain: kind = hasChildren ? .compound : .atomic
    case .parallel: kind = .parallel
    case .final: kind = .final
    case .history(let deep): kind = .history(deep: deep)
    }
    if case .history = kind {
      guard parent > 0, nodes[parent].kind == .compound || nodes[parent].kind == .parallel else {
        let place = parent > 0 ? "\"\(nodes[parent].id)\", which has no child state" : "the chart's top level"
        throw fail("the history state \"\(declared.id)\" is outside a compound state: it is in \(place)")
      }
    }
    nodes.append(ChartNode(id: declared.id, kind: kind, parent: parent, depth: depth))
    if parent >= 0 {
      nodes[parent].children.append(index)
      if case .history = kind {
        nodes[parent].hasHistory = true
      } else {
        nodes[parent].childMask |= 1 << UInt64(index)
      }
    }
    if kind == .compound {
      guard let initial = declared.initial else {
        throw fail("the compound state \"\(declared.id)\" has no initial child state (give `initial:`)")
      }
      pendingInitial.append((index, initial))
    } else if let initial = declared.initial, kind != .compound {
      throw fail("the state \"\(declared.id)\" names the initial state \"\(initial)\" but has no child state")
    }
    if let historyDefault = declared.historyDefault { pendingHistoryDefault.append((index, historyDefault)) }
    for element in declared.elements {
      switch element.kind {
      case .state(let child):
        let childRegion = kind == .parallel ? nodes.count : region
        try add(child, parent: index, depth: depth + 1, region: childRegion)
      case .transition(let transition):
        if kind == .final {
          let what =
            switch transition.trigger {
            case .after: "a delayed transition"
            case .done, .event: transition.code.hasCondition ? "a guarded transition" : "a transition"
            }
          throw fail("the final state \"\(declared.id)\" has \(what): a final state is never left by its own")
        }
        pending.append((index, transition))
      case .entry(let action): nodes[index].entryActions.append(action)
      case .exit(let action): nodes[index].exitActions.append(action)
      case .activity(let effect): nodes[index].activities.append(effect)
      }
    }
  }

  private mutating func resolve(
    _ declared: DeclaredTransition<Context, Event>, from source: Int
  ) throws(ChartDeclarationError) {
    let trigger: ChartTrigger<Event>
    switch declared.trigger {
    case .event(let name, let matches, let value): trigger = .event(name: name, matches: matches, value: value)
    case .after(let delay):
      // A negative delay would be due before a zero one started at the same
      // moment, an order no declaration means: refuse it rather than clamp it.
      guard delay >= .zero else {
        throw fail(
          "the delayed transition from \"\(nodes[source].id)\" waits \(delay), a negative delay; "
            + "give a delay of zero or more")
      }
      trigger = .after(delay)
    case .done: trigger = .done
    }
    var target = -1
    var domain = -1
    if let name = declared.target {
      guard let resolved = indexByID[name] else {
        let on =
          switch declared.trigger {
          case .event(let event, _, _): "on \(event)"
          case .after(let delay): "after \(delay)"
          case .done: "on done"
          }
        throw fail(
          "the transition from \"\(nodes[source].id)\" \(on) goes to \"\(name)\", which is not declared")
      }
      target = resolved
      domain = leastCommonCompoundAncestor(source, resolved)
    }
    let index = transitions.count
    transitions.append(
      ChartTransition(
        source: source, trigger: trigger, guardName: declared.guardName, code: declared.code, target: target,
        domain: domain))
    nodes[source].transitions.append(index)
  }

  /// SCXML's findLCCA: the innermost proper ancestor of `source` that is a
  /// compound state (or the root) and holds `target`.
  private func leastCommonCompoundAncestor(_ source: Int, _ target: Int) -> Int {
    var ancestor = nodes[source].parent
    while ancestor > 0 {
      let holdsTarget = nodes[ancestor].descendantMask & (1 << UInt64(target)) != 0
      if nodes[ancestor].kind == .compound && holdsTarget { return ancestor }
      ancestor = nodes[ancestor].parent
    }
    return 0
  }
}
