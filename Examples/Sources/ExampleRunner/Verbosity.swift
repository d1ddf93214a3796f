import Synchronization

/// Whether a timeline shows routine lines (clock ticks, timers restarted) or
/// hides them, so that what the person did stays on the screen. A key of the
/// interactive session switches it while the example runs.
final class Verbosity: Sendable {
  private let quiet: Mutex<Bool>

  init(quiet: Bool) { self.quiet = Mutex(quiet) }

  /// Whether routine lines are hidden.
  var isQuiet: Bool { quiet.withLock { $0 } }

  /// Hides routine lines if they are shown, shows them if hidden; returns
  /// whether they are now hidden.
  func toggle() -> Bool {
    quiet.withLock {
      $0.toggle()
      return $0
    }
  }

  /// The line that says which mode is on and how to switch.
  static func notice(quiet: Bool) -> String {
    quiet
      ? "Quiet timeline: clock ticks and timer restarts are hidden; press v to show them."
      : "Full timeline: every tick and timer restart is shown; press v to hide them."
  }
}
