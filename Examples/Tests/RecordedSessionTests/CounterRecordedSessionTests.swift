import CounterExample
import FeedbackLoop
import FeedbackLoopDebugging
import Testing

@Suite struct CounterRecordedSessionTests {
  @Test("G13 the counter's scripted session, recorded, replays to identical states")
  func replay() {
    let session = ScriptedSession()
    let recorder = session.recorder(Counter.State.self, Counter.Event.self)
    let plus = Button()
    let minus = Button()
    let counter = System(
      initial: 0, reduceReturning: Counter.reduce, feedbacks: Counter.feedbacks(plus: plus, minus: minus),
      environment: session.environment, monitor: recorder.monitor)
    session.act()
    session.act {
      plus.tap()
      plus.tap()
      plus.tap()
    }
    session.wait(.seconds(1))
    session.act { minus.tap() }
    session.wait(.seconds(1))
    session.act { plus.tap() }
    session.act { minus.tap() }
    session.act { plus.tap() }
    session.act { counter.stop() }

    let moments = recorder.moments
    #expect(moments.count == 8)
    #expect(moments.last?.state == 3 && moments.last?.stopped == true)
    let report = Replay.check(moments, reduceReturning: Counter.reduce)
    #expect(report.isIdentical, "\(report.divergence.map(String.init(describing:)) ?? "")")
    #expect(report.replayed == 7)
  }
}
