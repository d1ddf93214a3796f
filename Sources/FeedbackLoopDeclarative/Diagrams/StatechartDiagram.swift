/// A statechart drawn and checked: its states as a tree (composite states
/// hold their children, parallel states their regions), its transitions,
/// which states no sequence of events reaches, and which leave nothing.
///
/// ```swift
/// let diagram = chart.diagram
/// diagram.unreachableStates   // []
/// diagram.statesWithNoWayOut  // []
/// print(diagram.mermaid)
/// ```
public struct StatechartDiagram: Sendable, Hashable {
  /// What a drawn state is.
  ///
  /// Closed for good: no version adds a case.
  public enum Kind: String, Sendable, Hashable {
    case atomic, compound, parallel, final, shallowHistory, deepHistory
  }

  /// One state: its kind, its children in document order, its initial child.
  public struct State: Sendable, Hashable {
    public let id: String
    public let kind: Kind
    public let children: [String]
    public let initial: String?
  }

  /// The chart's name: its root, which holds the top-level states.
  public let name: String
  /// Every state, the root first, in document order.
  public let states: [State]
  /// The transitions in document order. A targetless transition is drawn
  /// from its state to itself; its event is labelled with its guard
  /// (`seek [seekable]`), a delay (`after 3.0 seconds`) or `done`.
  public let transitions: [StateDiagram.Transition]
  /// The states no sequence of transitions enters from the initial
  /// configuration, guards taken as possibly true.
  public let unreachableStates: [String]
  /// The atomic states that nothing leaves, neither their own transitions
  /// nor their ancestors': once there, the chart stays. Final states are
  /// not counted (staying is what they are for).
  public let statesWithNoWayOut: [String]

  func state(_ id: String) -> State? { states.first { $0.id == id } }
}

extension Statechart {
  /// The chart's diagram, with its reachability checks.
  ///
  /// ```swift
  /// #expect(chart.diagram.unreachableStates.isEmpty)
  /// print(chart.diagram.mermaid)
  /// ```
  public var diagram: StatechartDiagram {
    let states = nodes.map { node in
      let kind: StatechartDiagram.Kind =
        switch node.kind {
        case .atomic: .atomic
        case .compound: .compound
        case .parallel: .parallel
        case .final: .final
        case .history(let deep): deep ? .deepHistory : .shallowHistory
        }
      return StatechartDiagram.State(
        id: node.id, kind: kind, children: node.children.map { nodes[$0].id },
        initial: node.initial >= 0 ? nodes[node.initial].id : nil)
    }
    let drawn = transitions.map { transition in
      StateDiagram.Transition(
        from: nodes[transition.source].id, event: transition.label,
        to: nodes[transition.target >= 0 ? transition.target : transition.source].id)
    }
    let reached = reachableMask()
    let unreachable = nodes.indices.filter { reached & (1 << UInt64($0)) == 0 }.map { nodes[$0].id }
    let stuck = nodes.indices.filter { index in
      guard nodes[index].kind == .atomic else { return false }
      var ancestor = index
      while ancestor > 0 {
        for transition in nodes[ancestor].transitions where transitions[transition].target >= 0 {
          let target = transitions[transition].target
          if target != index && !isDescendant(target, of: index) { return false }
        }
        ancestor = nodes[ancestor].parent
      }
      return true
    }.map { nodes[$0].id }
    return StatechartDiagram(
      name: name, states: states, transitions: drawn, unreachableStates: unreachable, statesWithNoWayOut: stuck)
  }

  /// The states some sequence of transitions may enter (guards taken as
  /// possibly true): a fixpoint over what each transition from a reached
  /// state enters, with the default entries below its target and the
  /// regions beside it.
  func reachableMask() -> UInt64 {
    var reached: UInt64 = 0
    addDescendants(0, to: &reached, history: 0)
    var changed = true
    while changed {
      changed = false
      for transition in transitions where transition.target >= 0 && reached & (1 << UInt64(transition.source)) != 0 {
        var entered: UInt64 = 0
        addDescendants(transition.target, to: &entered, history: 0)
        addAncestors(of: transition.target, below: transition.domain, to: &entered, history: 0)
        // A history state may also resume any state reached so far below it.
        if case .history = nodes[transition.target].kind {
          entered |= 1 << UInt64(transition.target)
          entered |= reached & nodes[nodes[transition.target].parent].descendantMask
        }
        if entered & ~reached != 0 {
          reached |= entered
          changed = true
        }
      }
    }
    return reached
  }
}
