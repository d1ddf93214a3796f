import FeedbackLoop
import VolumeExample

/// The volume regulator, in a terminal: `+` and `-` turn the volume, and the
/// loop brings it back to the target.
enum VolumeDemo {
  static let example = Example(
    name: "volume",
    summary: "The Feedbacks README's volume regulator: two feedbacks step the volume to its target, one step per state",
    run: run
  )

  /// The volume the speaker starts at, and the one the regulator aims for.
  static let initial = 10
  static let target = 15

  static let bindings = [
    KeyBinding(keys: "+", action: "turn the volume up"), KeyBinding(keys: "-", action: "turn it down"),
  ]

  static func describe(_ state: Volume.State) -> String {
    "volume \(state.value) " + String(repeating: "▮", count: max(0, min(state.value, 40)))
  }

  static func makeSystem(
    _ session: ExampleSession, environment: SystemEnvironment, now: @escaping @Sendable () -> Duration
  ) async throws -> System<Volume.State, Volume.Event> {
    let printer = TimelinePrinter<Volume.State, Volume.Event>(
      console: session.console, now: now, describeState: describe, describeEvent: { "\($0)" })
    return System(
      initial: Volume.State(value: initial), reduceReturning: Volume.reduce,
      feedbacks: Volume.feedbacks(target: target),
      environment: environment, monitor: try await session.monitor(printer, name: example.name))
  }

  /// What a key did, which the timeline shows only as two quick lines: the
  /// key moved the volume, and the regulator pulled it back to its target
  /// before the key's `send` returned.
  static func pullBack(pressed event: Volume.Event, from before: Int, to after: Int) -> String {
    let pushed = event == .increase ? before + 1 : before - 1
    guard pushed != after else { return "The key turned the volume to \(pushed)." }
    return "The key turned the volume to \(pushed); the regulator pulled it back to \(after), its target, at once."
  }

  static func run(_ session: ExampleSession) async throws {
    let targetLine = "The speaker starts at \(initial); the target, outside the system, is \(target)."
    if session.isInteractive {
      example.printHeader(session, time: Example.interactiveTime + "\n" + targetLine)
      let volume = try await makeSystem(session, environment: SystemEnvironment(), now: RealTime().now)
      await Interactive.run(session, bindings: bindings) { key in
        let event: Volume.Event
        switch key {
        case .character("+"), .character("="), .up: event = .increase
        case .character("-"), .down: event = .decrease
        default: return .unknown
        }
        let before = volume.state.value
        volume.send(event)
        session.console.line(pullBack(pressed: event, from: before, to: volume.state.value))
        return .handled
      }
      volume.stop()
    } else {
      example.printHeader(session, time: ScriptClock.description + "\n" + targetLine)
      let clock = ScriptClock()
      let script = Script(console: session.console, clock: clock)
      script.say(
        "As the system starts, the loop runs to rest: every state runs both feedbacks, until neither has a step to take."
      )
      let volume = try await makeSystem(session, environment: clock.environment, now: clock.now)
      script.act {}
      script.wait(.seconds(1))
      script.say("Turn the volume up twice: each time the loop brings it back down.")
      script.act { volume.send(.increase) }
      script.act { volume.send(.increase) }
      script.wait(.seconds(1))
      script.say("Turn it down: the loop brings it back up.")
      script.act {
        let before = volume.state.value
        volume.send(.decrease)
        session.console.line(pullBack(pressed: .decrease, from: before, to: volume.state.value))
      }
      script.act { volume.stop() }
      session.console.line("\nThe volume is \(volume.state.value). In a terminal, press + and - yourself.")
    }
  }
}
