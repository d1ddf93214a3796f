import AnimatedIntegerExample
import CycleDrivers
import FeedbackLoop
import FeedbackLoopCycle

/// Cycle.swift's Integer Mutation Animated sample, in a terminal: digits ask
/// for a target, and the integer walks there at 10 frames a second.
enum AnimatedIntegerDemo {
  static let example = Example(
    name: "animated-integer",
    summary: "Cycle.swift's animated integer: keys queue frames; new keys intercept, append to or remove the animation",
    run: run
  )

  static let bindings = [
    KeyBinding(keys: "0-9", action: "animate to the digit (intercept)"),
    KeyBinding(keys: "shift+0-9", action: "append a walk to the digit"),
    KeyBinding(keys: "x", action: "remove the animation"),
  ]

  static func printer(_ session: ExampleSession, now: @escaping @Sendable () -> Duration) -> TimelinePrinter<
    Reel<AnimatedInteger.Frame>, CycleEvent
  > {
    TimelinePrinter(
      console: session.console, now: now, describeState: { reel in "\(Array(reel.queue))" },
      describeEvent: { "\($0)" })
  }

  static func screen(_ session: ExampleSession) -> TerminalScreen<String, AnimatedInteger.Key> {
    AnimatedInteger.screen { [console = session.console] line in console.line("           screen │ \(line)") }
  }

  /// The shifted digits of a US keyboard, `)` for 0 to `(` for 9.
  static let shiftedDigits: [Character] = [")", "!", "@", "#", "$", "%", "^", "&", "*", "("]

  static func run(_ session: ExampleSession) async throws {
    let screen = screen(session)
    if session.isInteractive {
      example.printHeader(session, time: Example.interactiveTime)
      let app = AnimatedInteger.router(screen: screen).start(
        monitor: try await session.monitor(printer(session, now: RealTime().now), name: example.name))
      await Interactive.run(session, bindings: bindings) { key in
        switch key {
        case .character(let character) where character.isWholeNumber:
          screen.press(.animateTo(character.wholeNumberValue ?? 0))
        case .character(let character) where shiftedDigits.contains(character):
          screen.press(.appendTo(shiftedDigits.firstIndex(of: character) ?? 0))
        case .character("x"): screen.press(.cancel)
        default: return .unknown
        }
        return .handled
      }
      app.stop()
    } else {
      example.printHeader(session, time: ScriptClock.description)
      let clock = ScriptClock()
      let script = Script(console: session.console, clock: clock)
      let app = AnimatedInteger.router(screen: screen).start(
        environment: clock.environment,
        monitor: try await session.monitor(printer(session, now: clock.now), name: example.name))
      let frame = Duration.milliseconds(100)
      script.act {}
      script.say("Intercepted: animate to 5, then, one frame later, to 0: the walk turns back from where it is.")
      script.act { screen.press(.animateTo(5)) }
      script.wait(frame)
      script.act { screen.press(.animateTo(0)) }
      script.wait(frame * 3)
      script.say("Appended: walk to 3, and after one frame ask for 0: it is queued after the walk to 3.")
      script.act { screen.press(.appendTo(3)) }
      script.wait(frame)
      script.act { screen.press(.appendTo(0)) }
      script.wait(frame * 6)
      script.say("Removed: walk to 4, and after one frame cancel: the integer stays where it is; the clock stops.")
      script.act { screen.press(.animateTo(4)) }
      script.wait(frame)
      script.act { screen.press(.cancel) }
      script.wait(.seconds(1))
      script.act { app.stop() }
      session.console.line("\nThe integer is \(app.state.frame). In a terminal, press digits yourself.")
    }
  }
}
