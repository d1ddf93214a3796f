extension StateDiagram {
  /// The diagram as a Graphviz `digraph`, for `dot -Tsvg`.
  ///
  /// The initial state is pointed at by a dot; unreachable states are drawn
  /// dashed, states with no way out with a double border.
  ///
  /// ```swift
  /// try volume.diagram.dot.write(toFile: "volume.dot", atomically: true, encoding: .utf8)
  /// // dot -Tsvg volume.dot > volume.svg
  /// ```
  public var dot: String {
    var lines = [
      "digraph StateMachine {",
      "  rankdir=LR;",
      "  node [shape=box, style=rounded];",
      "  \"[*]\" [shape=point, label=\"\"];",
      "  \"[*]\" -> \(Self.dotQuoted(initialState));",
    ]
    let unreachable = Set(unreachableStates)
    let stuck = Set(statesWithNoWayOut)
    for state in states {
      var attributes: [String] = []
      if unreachable.contains(state) { attributes.append("style=\"rounded,dashed\"") }
      if stuck.contains(state) { attributes.append("peripheries=2") }
      let suffix = attributes.isEmpty ? "" : " [" + attributes.joined(separator: ", ") + "]"
      lines.append("  \(Self.dotQuoted(state))\(suffix);")
    }
    for transition in transitions {
      lines.append(
        "  \(Self.dotQuoted(transition.from)) -> \(Self.dotQuoted(transition.to)) "
          + "[label=\(Self.dotQuoted(transition.event))];")
    }
    lines.append("}")
    return lines.joined(separator: "\n") + "\n"
  }

  /// A Graphviz quoted string.
  static func dotQuoted(_ text: String) -> String {
    var quoted = "\""
    for character in text {
      if character == "\"" || character == "\\" { quoted.append("\\") }
      quoted.append(character.isNewline ? " " : character)
    }
    return quoted + "\""
  }
}
