import CounterExample
import FeedbackLoop

/// The counter, in a terminal: `+` and `-` are the buttons.
enum CounterDemo {
  static let example = Example(
    name: "counter",
    summary: "ReactiveFeedback's counter: a plus and a minus button, each a feedback that turns its taps into events",
    run: run
  )

  static let bindings = [KeyBinding(keys: "+", action: "tap plus"), KeyBinding(keys: "-", action: "tap minus")]

  static func printer(_ session: ExampleSession, now: @escaping @Sendable () -> Duration) -> TimelinePrinter<
    Counter.State, Counter.Event
  > {
    TimelinePrinter(console: session.console, now: now, describeState: { "count \($0)" }, describeEvent: { "\($0)" })
  }

  static func run(_ session: ExampleSession) async throws {
    let plus = Button()
    let minus = Button()
    if session.isInteractive {
      example.printHeader(session, time: Example.interactiveTime)
      let counter = System(
        initial: 0, reduceReturning: Counter.reduce, feedbacks: Counter.feedbacks(plus: plus, minus: minus),
        monitor: try await session.monitor(printer(session, now: RealTime().now), name: example.name))
      await Interactive.run(session, bindings: bindings) { key in
        switch key {
        case .character("+"), .character("="), .up: plus.tap()
        case .character("-"), .down: minus.tap()
        default: return .unknown
        }
        return .handled
      }
      counter.stop()
    } else {
      example.printHeader(session, time: ScriptClock.description)
      let clock = ScriptClock()
      let script = Script(console: session.console, clock: clock)
      let counter = System(
        initial: 0, reduceReturning: Counter.reduce, feedbacks: Counter.feedbacks(plus: plus, minus: minus),
        environment: clock.environment,
        monitor: try await session.monitor(printer(session, now: clock.now), name: example.name))
      script.act {}
      script.say("Tap plus three times: each tap is an event of the plus button's feedback.")
      script.act {
        plus.tap()
        plus.tap()
        plus.tap()
      }
      script.wait(.seconds(1))
      script.say("A second later, tap minus once.")
      script.act { minus.tap() }
      script.wait(.seconds(1))
      script.say("Then plus, minus, plus: the reducer takes them in the order they came.")
      script.act { plus.tap() }
      script.act { minus.tap() }
      script.act { plus.tap() }
      script.say("The end: stopping the system cancels the buttons' feedbacks.")
      script.act { counter.stop() }
      session.console.line("\nThe count is \(counter.state). In a terminal, press + and - yourself.")
    }
  }
}
