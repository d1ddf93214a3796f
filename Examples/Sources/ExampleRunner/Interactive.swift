/// What an interactive example did with a key.
enum KeyOutcome {
  /// The key did something.
  case handled
  /// The key means nothing here: the help is shown again (and `q` quits).
  case unknown
}

/// The keyboard loop of interactive sessions.
enum Interactive {
  /// Shows the help, then hands each key to `handle` until the person quits
  /// (`q`, Control-C, Control-D) or standard input ends.
  static func run(
    _ session: ExampleSession,
    bindings: [KeyBinding],
    handle: (Key) async -> KeyOutcome
  ) async {
    guard let keys = session.keys else { return }
    session.console.line(KeyBinding.help(bindings))
    for await key in keys {
      if key == .interrupt {
        session.interruption.record()
        break
      }
      if await handle(key) == .unknown {
        if key == .character("q") { break }
        session.console.line(KeyBinding.help(bindings))
      }
    }
  }
}
