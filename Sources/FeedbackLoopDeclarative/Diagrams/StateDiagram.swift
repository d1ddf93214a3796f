/// The declared transitions of a system as a graph, checked: which states
/// cannot be reached from the initial state, and which have no way out.
///
/// Export it as Mermaid (``mermaid``) or Graphviz (``dot``) text.
///
/// ```swift
/// let diagram = loader.diagram
/// diagram.unreachableStates   // []
/// diagram.statesWithNoWayOut  // []
/// print(diagram.mermaid)
/// // stateDiagram-v2
/// //     [*] --> LoadingState
/// //     LoadingState --> LoadedState: DataIsLoaded
/// //     ...
/// ```
///
/// States are named by their patterns: a state type by its name, an enum
/// case by the name given to its ``Pattern``, a value by its description.
/// Transitions from ``AnyState`` are drawn from every state they apply to
/// (not from states whose own transitions take the event first, by the rule
/// of ``Transitions``); when two transitions leave one state on the same
/// event, only the one that runs is drawn. Disabled transitions are drawn:
/// they are declared, and may be enabled.
public struct StateDiagram: Sendable, Hashable {
  /// One arrow: from a state, on an event, to a state.
  public struct Transition: Sendable, Hashable, CustomStringConvertible {
    /// The state left.
    public let from: String
    /// The event that triggers the transition (`AnyEvent` for every event).
    public let event: String
    /// The state entered.
    public let to: String

    public init(from: String, event: String, to: String) {
      self.from = from
      self.event = event
      self.to = to
    }

    public var description: String { "\(from) --\(event)--> \(to)" }
  }

  /// The name of the initial state.
  public let initialState: String
  /// Every state named by the transitions, the initial one first, then in
  /// the order the declarations name them.
  public let states: [String]
  /// The arrows, in the order of the declarations.
  public let transitions: [Transition]

  /// A diagram of these states and arrows.
  ///
  /// ```swift
  /// StateDiagram(initialState: "idle", states: ["idle", "busy"], transitions: [
  ///   .init(from: "idle", event: "start", to: "busy"),
  /// ])
  /// ```
  public init(initialState: String, states: [String], transitions: [Transition]) {
    self.initialState = initialState
    self.states = states
    self.transitions = transitions
  }

  /// The states that no sequence of transitions leads to from the initial
  /// state: declared for nothing, or a sign of a missing transition.
  public var unreachableStates: [String] {
    var reached: Set<String> = [initialState]
    var frontier = [initialState]
    while let state = frontier.popLast() {
      for transition in transitions where transition.from == state && !reached.contains(transition.to) {
        reached.insert(transition.to)
        frontier.append(transition.to)
      }
    }
    return states.filter { !reached.contains($0) }
  }

  /// The states no transition leaves for another state: once there, the
  /// system stays there whatever happens. Right for a final state, a bug
  /// for any other.
  public var statesWithNoWayOut: [String] {
    states.filter { state in !transitions.contains { $0.from == state && $0.to != state } }
  }
}

extension StateDiagram {
  /// Builds the diagram of `transitions` from the initial state `initial`.
  init<State: Sendable, Event: Sendable>(_ transitions: Transitions<State, Event>, initial: String) {
    var exact: [DeclaredEdge] = []
    var wildcard: [DeclaredEdge] = []
    var names = [initial]
    func name(_ state: String) {
      if !names.contains(state) { names.append(state) }
    }
    for block in transitions.blocks {
      let compiled = block.compile()
      if !block.matchesAnyState { name(block.stateName) }
      for on in compiled.ons {
        name(on.targetName)
        let edge = DeclaredEdge(
          from: block.stateName, event: on.eventName, eventIsWildcard: on.matchesAnyEvent, to: on.targetName)
        if block.matchesAnyState { wildcard.append(edge) } else { exact.append(edge) }
      }
    }
    // The rule of `Transitions`: exact events before `AnyEvent`, exact
    // states before `AnyState`, the first declared within a rank.
    var drawn: [Transition] = []
    var taken: Set<[String]> = []
    var takesEveryEvent: Set<String> = []
    for edge in exact.filter({ !$0.eventIsWildcard }) + exact.filter(\.eventIsWildcard) {
      if takesEveryEvent.contains(edge.from) || !taken.insert([edge.from, edge.event]).inserted { continue }
      if edge.eventIsWildcard { takesEveryEvent.insert(edge.from) }
      drawn.append(Transition(from: edge.from, event: edge.event, to: edge.to))
    }
    for edge in wildcard.filter({ !$0.eventIsWildcard }) + wildcard.filter(\.eventIsWildcard) {
      for state in names {
        if takesEveryEvent.contains(state) || !taken.insert([state, edge.event]).inserted { continue }
        if edge.eventIsWildcard { takesEveryEvent.insert(state) }
        drawn.append(Transition(from: state, event: edge.event, to: edge.to))
      }
    }
    // Grouped by the state they leave, in the order of the states.
    let order = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
    let grouped = drawn.enumerated().sorted { lhs, rhs in
      (order[lhs.element.from] ?? 0, lhs.offset) < (order[rhs.element.from] ?? 0, rhs.offset)
    }
    self.init(initialState: initial, states: names, transitions: grouped.map(\.element))
  }
}

/// A transition as declared, before the rule of ``Transitions`` decides
/// which are drawn.
private struct DeclaredEdge {
  let from: String
  let event: String
  let eventIsWildcard: Bool
  let to: String
}

extension Transitions {
  /// The diagram of these transitions, from `initialState`.
  ///
  /// ```swift
  /// let diagram = transitions.diagram(initialState: LoadingState(page: 1))
  /// ```
  public func diagram(initialState: State) -> StateDiagram {
    StateDiagram(self, initial: stateName(of: initialState))
  }
}

extension DeclarativeSystem {
  /// The diagram of the system's transitions, from its initial state.
  ///
  /// ```swift
  /// #expect(volume.diagram.unreachableStates.isEmpty)
  /// print(volume.diagram.mermaid)
  /// ```
  public var diagram: StateDiagram {
    transitions.diagram(initialState: initialState)
  }
}
