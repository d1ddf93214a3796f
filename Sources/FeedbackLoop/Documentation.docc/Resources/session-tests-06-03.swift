import FeedbackLoop
import FeedbackLoopDebugging
import FeedbackLoopTesting
import Testing

@Suite struct SessionTests {
  @Test func aRecordedSessionReplaysToTheStatesItRecorded() throws {
    let executor = ManualTaskExecutor()
    let clock = TestClock(executor: executor)
    let service = Lookup.Service { word in "\(word): a word." }
    let recorder = Recorder<App.State, App.Event>(clock: clock)
    let app = Session.start(
      service: service, recorder: recorder,
      environment: SystemEnvironment(clock: clock, effectExecutor: executor))

    app.send(.lookup(.wordChanged("swift")))
    clock.advance(by: .milliseconds(300))
    app.send(.history(.selected("swift")))
    clock.advance(by: .milliseconds(300))
    app.stop()

    let moments = recorder.moments
    // The start, then one moment per event: two sent by the user, two by
    // the look-up's effect.
    #expect(
      moments.map(\.event) == [
        nil,
        .lookup(.wordChanged("swift")), .lookup(.defined("swift: a word.")),
        .history(.selected("swift")), .lookup(.defined("swift: a word.")),
      ])
    let report = Session.replay(moments, service: service)
    #expect(report.isIdentical)
    #expect(report.replayed == 4)
  }
}
