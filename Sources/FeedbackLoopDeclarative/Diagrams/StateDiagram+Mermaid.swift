extension StateDiagram {
  /// The diagram as a Mermaid `stateDiagram-v2`, ready for a Markdown
  /// ` ```mermaid ` block (GitHub and DocC hosts that support Mermaid draw it).
  ///
  /// The checks come last, as Mermaid comments (`%%`), when they find
  /// something.
  ///
  /// ```swift
  /// print(volume.diagram.mermaid)
  /// // stateDiagram-v2
  /// //     [*] --> VolumeState
  /// //     VolumeState --> VolumeState: IncreaseEvent
  /// //     VolumeState --> VolumeState: DecreaseEvent
  /// //     %% no way out: VolumeState
  /// ```
  public var mermaid: String {
    var lines = ["stateDiagram-v2", "    [*] --> \(Self.mermaidID(initialState))"]
    let connected = Set(transitions.flatMap { [$0.from, $0.to] } + [initialState])
    for state in states where !connected.contains(state) {
      lines.append("    \(Self.mermaidID(state))")
    }
    for transition in transitions {
      lines.append(
        "    \(Self.mermaidID(transition.from)) --> \(Self.mermaidID(transition.to)): "
          + Self.mermaidLabel(transition.event))
    }
    let unreachable = unreachableStates
    if !unreachable.isEmpty { lines.append("    %% unreachable: " + unreachable.joined(separator: ", ")) }
    let stuck = statesWithNoWayOut
    if !stuck.isEmpty { lines.append("    %% no way out: " + stuck.joined(separator: ", ")) }
    return lines.joined(separator: "\n") + "\n"
  }

  /// A Mermaid state id: letters, digits and `_`.
  static func mermaidID(_ name: String) -> String {
    String(name.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
  }

  /// A Mermaid transition label: no `:` or newline, which end it.
  static func mermaidLabel(_ name: String) -> String {
    String(name.map { $0 == ":" || $0.isNewline ? " " : $0 })
  }
}
