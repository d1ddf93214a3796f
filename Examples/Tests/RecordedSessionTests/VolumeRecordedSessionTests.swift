import FeedbackLoop
import FeedbackLoopDebugging
import Testing
import VolumeExample

@Suite struct VolumeRecordedSessionTests {
  @Test("G13 the volume regulator's scripted session, recorded, replays to identical states")
  func replay() {
    let session = ScriptedSession()
    let recorder = session.recorder(Volume.State.self, Volume.Event.self)
    let volume = System(
      initial: Volume.State(value: 10), reduceReturning: Volume.reduce, feedbacks: Volume.feedbacks(target: 15),
      environment: session.environment, monitor: recorder.monitor)
    session.act()
    session.wait(.seconds(1))
    session.act { volume.send(.increase) }
    session.act { volume.send(.increase) }
    session.wait(.seconds(1))
    session.act { volume.send(.decrease) }
    session.act { volume.stop() }

    let moments = recorder.moments
    #expect(moments.count > 4)
    #expect(moments.last?.state == volume.state)
    let report = Replay.check(moments, reduceReturning: Volume.reduce)
    #expect(report.isIdentical, "\(report.divergence.map(String.init(describing:)) ?? "")")
    #expect(report.replayed == moments.count - 1)
  }
}
