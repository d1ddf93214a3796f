import FeedbackLoop
import FeedbackLoopDebugging
import PlayerExample
import Testing

@Suite struct PlayerRecordedSessionTests {
  @Test("G13 the player's scripted session, recorded, replays to identical states")
  func replay() {
    let session = ScriptedSession()
    let recorder = session.recorder(Player.State.self, Player.Event.self)
    let video = SimulatedVideoPlayer(clock: session.clock)
    let player = System(
      initial: Player.State(), reduce: Player.reduce, feedbacks: Player.feedbacks(player: video),
      environment: session.environment, monitor: recorder.monitor)
    session.act()
    session.wait(.seconds(1))
    session.act { player.send(.tapped) }
    session.wait(.seconds(1))
    session.act { player.send(.playPauseTapped) }
    session.wait(.milliseconds(500))
    session.act { player.send(.playPauseTapped) }
    session.wait(.seconds(6))
    session.act { player.send(.tapped) }
    session.wait(.milliseconds(300))
    session.act { player.send(.tapped) }
    session.wait(.seconds(8))
    session.act { player.send(.jumped(by: -Player.jumpLength)) }
    session.wait(.seconds(2))
    session.act { player.send(.skipIntroTapped) }
    session.wait(.seconds(1))
    session.act { player.stop() }

    let moments = recorder.moments
    #expect(moments.count > 20)
    // Timers and the playback tick: most events come from effects, at the clock's times.
    #expect(moments.contains { if case .effect = $0.source { true } else { false } })
    #expect(moments.last?.time.map { $0 > .seconds(19) && $0 <= session.clock.now.offset } == true)
    let report = Replay.check(moments, reduce: Player.reduce)
    #expect(report.isIdentical, "\(report.divergence.map(String.init(describing:)) ?? "")")
    #expect(report.replayed == moments.count - 1)
  }
}
