extension StatechartDiagram {
  /// The chart as a Graphviz `digraph`: a compound state is a cluster, a
  /// parallel state a cluster of dashed clusters (its regions). An arrow to
  /// or from a composite state is drawn to or from its initial atomic state,
  /// clipped at the cluster's border (`lhead`, `ltail`).
  ///
  /// ```swift
  /// try chart.diagram.dot.write(toFile: "player.dot", atomically: true, encoding: .utf8)
  /// // dot -Tsvg player.dot > player.svg
  /// ```
  public var dot: String {
    var lines = [
      "digraph \(StateDiagram.dotQuoted(name)) {", "  compound=true;", "  rankdir=LR;",
      "  node [shape=box, style=rounded];", "  \"[*]\" [shape=point, label=\"\"];",
    ]
    guard let root = states.first else { return (lines + ["}"]).joined(separator: "\n") + "\n" }
    if let initial = root.initial { lines.append(edge(from: "[*]", to: initial, label: nil)) }
    for child in root.children.compactMap({ state($0) }) { drawDot(child, regionStyle: false, depth: 1, into: &lines) }
    for transition in transitions {
      lines.append(edge(from: transition.from, to: transition.to, label: transition.event))
    }
    lines.append("}")
    return lines.joined(separator: "\n") + "\n"
  }

  private func drawDot(_ state: State, regionStyle: Bool, depth: Int, into lines: inout [String]) {
    let indent = String(repeating: "  ", count: depth)
    switch state.kind {
    case .compound, .parallel:
      lines.append("\(indent)subgraph \(StateDiagram.dotQuoted("cluster_" + state.id)) {")
      lines.append("\(indent)  label=\(StateDiagram.dotQuoted(state.id));")
      if regionStyle { lines.append("\(indent)  style=dashed;") }
      for child in state.children.compactMap({ self.state($0) }) {
        drawDot(child, regionStyle: state.kind == .parallel, depth: depth + 1, into: &lines)
      }
      lines.append("\(indent)}")
    case .atomic:
      lines.append("\(indent)\(StateDiagram.dotQuoted(state.id));")
    case .final:
      lines.append("\(indent)\(StateDiagram.dotQuoted(state.id)) [peripheries=2];")
    case .shallowHistory:
      lines.append("\(indent)\(StateDiagram.dotQuoted(state.id)) [shape=circle, label=\"H\"];")
    case .deepHistory:
      lines.append("\(indent)\(StateDiagram.dotQuoted(state.id)) [shape=circle, label=\"H*\"];")
    }
  }

  /// The atomic state an arrow to or from `id` is drawn at: `id` itself, or
  /// the initial (first, for a parallel state) descendant of a composite.
  private func anchor(_ id: String) -> String {
    var current = id
    while let state = state(current), state.kind == .compound || state.kind == .parallel,
      let next = state.initial ?? state.children.first
    {
      current = next
    }
    return current
  }

  private func edge(from: String, to: String, label: String?) -> String {
    var attributes: [String] = []
    if let label { attributes.append("label=\(StateDiagram.dotQuoted(label))") }
    if let source = state(from), source.kind == .compound || source.kind == .parallel {
      attributes.append("ltail=\(StateDiagram.dotQuoted("cluster_" + from))")
    }
    if let target = state(to), target.kind == .compound || target.kind == .parallel {
      attributes.append("lhead=\(StateDiagram.dotQuoted("cluster_" + to))")
    }
    let suffix = attributes.isEmpty ? "" : " [" + attributes.joined(separator: ", ") + "]"
    return "  \(StateDiagram.dotQuoted(anchor(from))) -> \(StateDiagram.dotQuoted(anchor(to)))\(suffix);"
  }
}
