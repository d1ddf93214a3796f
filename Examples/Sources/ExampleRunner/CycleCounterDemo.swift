import CycleCounterExample
import CycleDrivers
import FeedbackLoop
import FeedbackLoopCycle

/// Cycle.swift's Counter as a Cycle application, in a terminal: a screen that
/// draws and reads keys, and a clock that ticks every second.
enum CycleCounterDemo {
  static let example = Example(
    name: "cycle-counter",
    summary: "Cycle.swift's Counter: a screen driver and a clock driver meet in one frame, through a router",
    run: run
  )

  static let bindings = [
    KeyBinding(keys: "+", action: "increment"), KeyBinding(keys: "-", action: "decrement"),
    KeyBinding(keys: "p", action: "pause or resume the clock"),
  ]

  static func printer(_ session: ExampleSession, now: @escaping @Sendable () -> Duration) -> TimelinePrinter<
    Reel<CycleCounter.Frame>, CycleEvent
  > {
    TimelinePrinter(
      console: session.console, now: now,
      describeState: { reel in CycleCounter.screenModel(reel.frame) }, describeEvent: { "\($0)" })
  }

  static func screen(_ session: ExampleSession) -> TerminalScreen<String, CycleCounter.Key> {
    CycleCounter.screen { [console = session.console] line in console.line("           screen │ \(line)") }
  }

  static func run(_ session: ExampleSession) async throws {
    let screen = screen(session)
    if session.isInteractive {
      example.printHeader(session, time: Example.interactiveTime)
      let ticker = Ticker(clock: ContinuousClock(), interval: .seconds(1))
      let app = CycleCounter.router(screen: screen, ticker: ticker).start(
        monitor: try await session.monitor(printer(session, now: RealTime().now), name: example.name))
      await Interactive.run(session, bindings: bindings) { key in
        switch key {
        case .character("+"), .character("="), .up: screen.press(.increment)
        case .character("-"), .down: screen.press(.decrement)
        case .character("p"): screen.press(.pause)
        default: return .unknown
        }
        return .handled
      }
      app.stop()
    } else {
      example.printHeader(session, time: ScriptClock.description)
      let clock = ScriptClock()
      let script = Script(console: session.console, clock: clock)
      let ticker = Ticker(clock: clock.clock, interval: .seconds(1))
      let app = CycleCounter.router(screen: screen, ticker: ticker).start(
        environment: clock.environment,
        monitor: try await session.monitor(printer(session, now: clock.now), name: example.name))
      script.act {}
      script.say("Press + twice: the screen's events go through its event filter into the next frame.")
      script.act { screen.press(.increment) }
      script.act { screen.press(.increment) }
      script.say("Wait two seconds: the clock driver's ticks meet the screen's keys in the same frame.")
      script.wait(.seconds(2))
      script.say("Pause the clock (p): its model changes, so it renders; the screen's too.")
      script.act { screen.press(.pause) }
      script.wait(.seconds(2))
      script.say("Press -: the clock stays paused, the count goes down.")
      script.act { screen.press(.decrement) }
      script.say("The end: stopping the router stops both drivers' inputs.")
      script.act { app.stop() }
      session.console.line(
        "\nThe frame is: \(CycleCounter.screenModel(app.state.frame)). In a terminal, press + - p yourself.")
    }
  }
}
