import FeedbackLoop
import FeedbackLoopDebugging
import SignInExample
import Testing

@Suite struct SignInRecordedSessionTests {
  @Test("G13 the sign-in's scripted session, recorded, replays to identical states")
  func replay() {
    let session = ScriptedSession()
    let recorder = session.recorder(SignIn.State.self, SignIn.Event.self)
    let auth = SimulatedAuthService(clock: session.clock)
    let signIn = System(
      initial: .signedOut(nil), reduceReturning: SignIn.reduce, feedbacks: SignIn.feedbacks(auth: auth),
      environment: session.environment, monitor: recorder.monitor)
    let wrongPassword = Credentials(username: "ada", password: "babbage")
    session.act()
    session.act { signIn.send(.signIn(wrongPassword)) }
    session.wait(.seconds(1))
    session.act { signIn.send(.signIn(SimulatedAuthService.knownUser)) }
    session.wait(.seconds(1))
    session.wait(.seconds(10))
    session.act { auth.revokeSessions() }
    session.wait(.seconds(11))
    session.act { signIn.send(.signIn(SimulatedAuthService.knownUser)) }
    session.wait(.milliseconds(200))
    session.act { signIn.send(.signOut) }
    session.wait(.seconds(1))
    session.act { signIn.stop() }

    let moments = recorder.moments
    #expect(moments.count > 8)
    // Signing out cancelled the sign-in in flight: the recorder saw it, with its feedback.
    #expect(moments.contains { $0.effects.contains { $0.kind == .cancelled } })
    let report = Replay.check(moments, reduceReturning: SignIn.reduce)
    #expect(report.isIdentical, "\(report.divergence.map(String.init(describing:)) ?? "")")
    #expect(report.replayed == moments.count - 1)
  }
}
