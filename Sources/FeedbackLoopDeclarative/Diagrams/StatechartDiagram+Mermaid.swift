extension StatechartDiagram {
  /// The chart as a Mermaid `stateDiagram-v2`: a compound state is a
  /// `state id { ... }` block with its initial child marked `[*] -->`; a
  /// parallel state's regions are separated by `--`; a history state is
  /// drawn `H` (shallow) or `H*` (deep); a final state leads to `[*]`. The
  /// transitions follow, then the checks as comments (`%%`).
  ///
  /// ```swift
  /// print(chart.diagram.mermaid)
  /// // stateDiagram-v2
  /// //     [*] --> loading
  /// //     state loaded {
  /// //         [*] --> playing
  /// //         ...
  /// ```
  public var mermaid: String {
    var lines = ["stateDiagram-v2"]
    guard let root = states.first else { return lines.joined(separator: "\n") + "\n" }
    drawMermaid(root, depth: 1, into: &lines)
    for transition in transitions {
      lines.append(
        "    \(StateDiagram.mermaidID(transition.from)) --> \(StateDiagram.mermaidID(transition.to)): "
          + StateDiagram.mermaidLabel(transition.event))
    }
    if !unreachableStates.isEmpty { lines.append("    %% unreachable: " + unreachableStates.joined(separator: ", ")) }
    if !statesWithNoWayOut.isEmpty {
      lines.append("    %% no way out: " + statesWithNoWayOut.joined(separator: ", "))
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// Draws the content of `state` (its children) at `depth`.
  private func drawMermaid(_ state: State, depth: Int, into lines: inout [String]) {
    let indent = String(repeating: "    ", count: depth)
    if let initial = state.initial { lines.append("\(indent)[*] --> \(StateDiagram.mermaidID(initial))") }
    let children = state.children.compactMap { self.state($0) }
    for (position, child) in children.enumerated() {
      if state.kind == .parallel && position > 0 { lines.append("\(indent)--") }
      let id = StateDiagram.mermaidID(child.id)
      switch child.kind {
      case .compound, .parallel:
        lines.append("\(indent)state \(id) {")
        drawMermaid(child, depth: depth + 1, into: &lines)
        lines.append("\(indent)}")
      case .atomic:
        lines.append("\(indent)\(id)")
      case .final:
        lines.append("\(indent)\(id) --> [*]")
      case .shallowHistory:
        lines.append("\(indent)state \"H\" as \(id)")
      case .deepHistory:
        lines.append("\(indent)state \"H*\" as \(id)")
      }
    }
  }
}
