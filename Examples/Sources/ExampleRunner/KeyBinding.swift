/// A key an interactive example answers, and what it does: its help line.
struct KeyBinding: Sendable {
  /// The key, as the help shows it: `space`, `+`, `←/→`.
  let keys: String
  /// What it does.
  let action: String

  /// The help line of several bindings.
  static func help(_ bindings: [KeyBinding]) -> String {
    "Keys: "
      + (bindings + [KeyBinding(keys: "q", action: "quit")]).map { "\($0.keys) \($0.action)" }.joined(
        separator: " · ")
  }
}
