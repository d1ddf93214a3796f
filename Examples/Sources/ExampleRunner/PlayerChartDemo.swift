import FeedbackLoop
import FeedbackLoopDeclarative
import PlayerChartExample

/// The video player as a statechart, scripted: its diagram, then a session
/// on the script clock (the HUD hides 3 s after the last interaction, the
/// skip-intro countdown runs, a stop and a play resume the video by history).
enum PlayerChartDemo {
  static let example = Example(
    name: "player-chart",
    summary: "The video player as a statechart: nested states, parallel regions, history, delays",
    run: run
  )

  static func describe(_ state: ChartSnapshot<PlayerChart.Context>) -> String {
    let countdown = state.isActive("countdown") ? " (skip in \(state.context.secondsLeft) s)" : ""
    return state.activeLeaves.joined(separator: " · ") + countdown
  }

  static func run(_ session: ExampleSession) async throws {
    example.printHeader(session, time: ScriptClock.description)
    session.console.line("The chart, as Mermaid:\n")
    session.console.line(PlayerChart.chart.diagram.mermaid)
    let clock = ScriptClock()
    let script = Script(console: session.console, clock: clock)
    let printer = TimelinePrinter<ChartSnapshot<PlayerChart.Context>, ChartEvent<PlayerChart.Event>>(
      console: session.console, now: clock.now, describeState: describe, describeEvent: { "\($0)" })
    let player = PlayerChart.chart.start(
      context: PlayerChart.Context(), environment: clock.environment,
      monitor: try await session.monitor(printer, name: example.name))
    script.say("The video loads; the HUD shows, and hides 3 s later.")
    script.act { player.send(.loaded) }
    script.wait(.seconds(4))
    script.say(
      "Tap: the HUD shows; pause: an interaction, its 3 s start again. Then the intro starts: 10 s to skip it.")
    script.act { player.send(.tap) }
    script.act { player.send(.pause) }
    script.act { player.send(.introStarted) }
    script.wait(.seconds(3))
    script.say("Skip the intro; the seek finishes; the skip-intro region reaches its final state.")
    script.act { player.send(.skip) }
    script.act { player.send(.seekFinished) }
    script.say("Stop, then play: the video resumes where it was (paused), by its history state.")
    script.act { player.send(.stop) }
    script.act { player.send(.play) }
    script.act { player.stop() }
    session.console.line("\nThe player ends in \(describe(player.state)).")
  }
}
