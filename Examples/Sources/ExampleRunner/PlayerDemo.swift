import FeedbackLoop
import PlayerExample

/// The player, in a terminal: space taps the video, `p` plays or pauses,
/// the arrows jump, `s` skips the intro.
enum PlayerDemo {
  static let example = Example(
    name: "player",
    summary:
      "The RxFeedback article's player: the HUD's 3-second auto-hide after the last interaction, the skip-intro countdown and its seek",
    run: run
  )

  static let bindings = [
    KeyBinding(keys: "space", action: "tap the video (HUD)"), KeyBinding(keys: "p", action: "play/pause"),
    KeyBinding(keys: "←/→", action: "jump 10 s"), KeyBinding(keys: "s", action: "skip the intro"),
    KeyBinding(keys: "v", action: "show or hide ticks and timer restarts"),
  ]

  /// The feedbacks whose effects start and end all the time: the playback
  /// clock, the HUD's timer (restarted by each interaction) and the countdown.
  static let routineFeedbacks: Set<String> = ["playback", "hide the HUD", "skip-intro countdown"]

  /// What a quiet timeline hides: each second played, each second of the
  /// countdown but its last, and the effects of the routine feedbacks.
  @Sendable static func isRoutine(_ activity: SystemActivity<Player.State, Player.Event>) -> Bool {
    switch activity {
    case .reduced(.ticked, _, _, _): true
    case .reduced(.secondsLeftChanged(let seconds), _, _, _): seconds > 0
    case .effectQueued(let id), .effectStarted(let id), .effectCancelled(let id), .effectFinished(let id):
      routineFeedbacks.contains(id.feedback.name)
    default: false
    }
  }

  /// `0:07 ▶ · HUD shown · skip intro in 8 s`.
  static func describe(_ state: Player.State) -> String {
    let position = time(state.position)
    let playing = state.isPlaying ? "▶ playing" : "❚❚ paused"
    let hud = state.isHUDVisible ? "HUD shown" : "HUD hidden"
    let intro: String
    switch state.skipIntro {
    case .hidden: intro = "no skip button"
    case .showing(let secondsLeft): intro = "[Skip intro] in \(secondsLeft) s"
    case .skipping: intro = "skipping the intro…"
    }
    return "\(position) \(playing) · \(hud) · \(intro)"
  }

  static func makeSystem(
    _ session: ExampleSession, environment: SystemEnvironment, now: @escaping @Sendable () -> Duration,
    verbosity: Verbosity = Verbosity(quiet: false)
  ) async throws -> System<Player.State, Player.Event> {
    let printer = TimelinePrinter<Player.State, Player.Event>(
      console: session.console, now: now, describeState: describe, describeEvent: { "\($0)" },
      verbosity: verbosity, isRoutine: isRoutine)
    let video = SimulatedVideoPlayer(clock: environment.clock)
    return System(
      initial: Player.State(), reduce: Player.reduce, feedbacks: Player.feedbacks(player: video),
      environment: environment, monitor: try await session.monitor(printer, name: example.name))
  }

  /// A position as a player shows it: `1:05`.
  static func time(_ seconds: Int) -> String {
    "\(seconds / 60):" + (seconds % 60 < 10 ? "0" : "") + "\(seconds % 60)"
  }

  static let videoLine =
    "The intro runs from \(time(Player.introStart)) to \(time(Player.introEnd)); a seek takes 0.5 s."

  static func run(_ session: ExampleSession) async throws {
    if session.isInteractive {
      example.printHeader(session, time: Example.interactiveTime + "\n" + videoLine)
      // A person at the keyboard starts with a quiet timeline: six lines a
      // second of ticks and restarts would push what they did off the screen.
      let verbosity = Verbosity(quiet: true)
      session.console.line(Verbosity.notice(quiet: true))
      let player = try await makeSystem(
        session, environment: SystemEnvironment(), now: RealTime().now, verbosity: verbosity)
      await Interactive.run(session, bindings: bindings) { key in
        switch key {
        case .character(" "), .enter: player.send(.tapped)
        case .character("p"): player.send(.playPauseTapped)
        case .left: player.send(.jumped(by: -Player.jumpLength))
        case .right: player.send(.jumped(by: Player.jumpLength))
        case .character("s"): player.send(.skipIntroTapped)
        case .character("v"): session.console.line(Verbosity.notice(quiet: verbosity.toggle()))
        default: return .unknown
        }
        return .handled
      }
      player.stop()
    } else {
      example.printHeader(session, time: ScriptClock.description + "\n" + videoLine)
      let clock = ScriptClock()
      let script = Script(console: session.console, clock: clock)
      let player = try await makeSystem(session, environment: clock.environment, now: clock.now)
      play(script, player)
    }
  }

  /// The scripted session: every feedback of the player at work.
  static func play(_ script: Script, _ player: System<Player.State, Player.Event>) {
    script.act {}
    script.say("The video plays: the playback feedback ticks once a second.")
    script.wait(.seconds(1))
    script.say("Tap the video: the HUD shows, and hides 3 s after the last interaction.")
    script.act { player.send(.tapped) }
    script.wait(.seconds(1))
    script.say("Pause, and play again half a second later: each interaction starts the 3 s again.")
    script.act { player.send(.playPauseTapped) }
    script.wait(.milliseconds(500))
    script.act { player.send(.playPauseTapped) }
    script.say("Wait: the HUD hides 3 s after the last interaction; the intro starts at 0:05.")
    script.wait(.seconds(6))
    script.say("Tap twice: the second tap hides the HUD at once, and cancels its timer.")
    script.act { player.send(.tapped) }
    script.wait(.milliseconds(300))
    script.act { player.send(.tapped) }
    script.say(
      "Let the countdown run out: at 0 the player seeks past the intro; the button hides when the seek is done.")
    script.wait(.seconds(8))
    script.say("Jump back 10 s, into the intro: the button shows again. Skip it at once (s).")
    script.act { player.send(.jumped(by: -Player.jumpLength)) }
    script.wait(.seconds(2))
    script.act { player.send(.skipIntroTapped) }
    script.wait(.seconds(1))
    script.say("The end: stopping the system cancels the playback and every timer.")
    script.act { player.stop() }
    script.console.line("\nThe player ends at \(describe(player.state)). In a terminal, drive it yourself.")
  }
}
