/// The steps of a scripted session on a ``ScriptClock``: narration, actions
/// (each followed by the effects it starts, run until they wait), and waits.
struct Script: Sendable {
  let console: Console
  let clock: ScriptClock

  /// A line of narration: what the script does next, and what to look for.
  func say(_ text: String) {
    console.lines(["", "  ── \(text)"])
  }

  /// Does `action` (sends an event, taps a button), then runs the effects
  /// it starts until each waits for the clock or has ended.
  func act(_ action: () -> Void) {
    action()
    clock.settle()
  }

  /// Lets `duration` pass on the clock: each timer due on the way fires, at its time.
  func wait(_ duration: Duration) {
    clock.wait(duration)
  }
}
