extension Router {
  /// The application's wiring as a Mermaid `stateDiagram-v2`, the form the
  /// monitor's page draws: the frame, each driver its model goes to, and the
  /// driver's events back into the next frame, in the order the drivers
  /// render.
  ///
  /// ```swift
  /// print(router.mermaidDiagram)
  /// // stateDiagram-v2
  /// //   [*] --> frame
  /// //   state "screen" as driver_screen
  /// //   frame --> driver_screen: model
  /// //   driver_screen --> frame: events
  /// ```
  public var mermaidDiagram: String {
    var lines = ["stateDiagram-v2", "  [*] --> frame"]
    for wire in wires {
      let id = "driver_" + String(wire.name.map { $0.isLetter || $0.isNumber ? $0 : "_" })
      let label = String(wire.name.map { $0 == "\"" ? "'" : $0 })
      lines.append("  state \"\(label)\" as \(id)")
      lines.append("  frame --> \(id): model")
      lines.append("  \(id) --> frame: events")
    }
    lines.append(
      "  %% a Cycle application: each frame goes to every driver as its model; a driver's events make the next frame")
    return lines.joined(separator: "\n") + "\n"
  }
}
