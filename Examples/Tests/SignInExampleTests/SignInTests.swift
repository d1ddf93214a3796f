import FeedbackLoop
import FeedbackLoopTesting
import SignInExample
import Testing

@Suite("Sign-in: the ReactiveFeedback talk's stateful environment")
struct SignInTests {
  static let ada = SimulatedAuthService.knownUser

  /// A signed-out system, with a server that answers in 0.5 s on the test
  /// clock and issues tokens that last 10 s.
  static func make() -> (TestSystem<SignIn.State, SignIn.Event>, SimulatedAuthService) {
    let clock = TestClock()
    let auth = SimulatedAuthService(clock: clock, latency: .milliseconds(500), tokenLifetime: .seconds(10))
    let system = TestSystem(
      initial: .signedOut(nil), reduceReturning: SignIn.reduce, feedbacks: SignIn.feedbacks(auth: auth), clock: clock)
    return (system, auth)
  }

  static func session(_ token: Int) -> Session {
    Session(username: "ada", accessToken: "token-\(token)", lifetime: .seconds(10), refreshToken: "refresh-1")
  }

  /// Signs ada in: token-1, half a second later.
  static func signIn(_ system: TestSystem<SignIn.State, SignIn.Event>) {
    system.send(.signIn(ada)) { $0 = .signingIn(ada) }
    system.advance(by: .milliseconds(500))
    system.receive(.signedIn(session(1))) { $0 = .signedIn(session(1)) }
  }

  @Test func aWrongPasswordLeavesTheUserSignedOutWithTheReason() {
    let (system, _) = Self.make()
    let wrong = Credentials(username: "ada", password: "babbage")
    system.send(.signIn(wrong)) { $0 = .signingIn(wrong) }
    system.advance(by: .milliseconds(500))
    system.receive(.signInFailed(.invalidCredentials)) { $0 = .signedOut(.invalidCredentials) }
    system.finish()
  }

  @Test func theTokenExpiresAfterItsLifetimeAndIsRefreshed() throws {
    let (system, _) = Self.make()
    Self.signIn(system)
    let timer = try #require(system.effectsInFlight.first)
    #expect(timer.feedback.name == "token expiry")
    system.advance(by: .milliseconds(9_999))
    #expect(system.state == .signedIn(Self.session(1)))
    system.advance(by: .milliseconds(1))
    system.receive(.tokenExpired) { $0 = .refreshing(Self.session(1)) }
    system.advance(by: .milliseconds(500))
    system.receive(.refreshed(Self.session(2))) { $0 = .signedIn(Self.session(2)) }

    // The new token has a timer of its own, from now.
    let renewed = try #require(system.effectsInFlight.first)
    #expect(renewed.feedback.name == "token expiry")
    #expect(renewed.startedAt == TestClock.Instant(offset: .milliseconds(11_000)))
    system.advance(by: .seconds(10))
    system.receive(.tokenExpired) { $0 = .refreshing(Self.session(2)) }
    system.advance(by: .milliseconds(500))
    system.receive(.refreshed(Self.session(3))) { $0 = .signedIn(Self.session(3)) }
    system.send(.signOut) { $0 = .signedOut(nil) }
    system.finish()
  }

  @Test func aRefreshThatFailsSignsTheUserOut() {
    let (system, auth) = Self.make()
    Self.signIn(system)
    auth.revokeSessions()
    system.advance(by: .seconds(10))
    system.receive(.tokenExpired) { $0 = .refreshing(Self.session(1)) }
    system.advance(by: .milliseconds(500))
    system.receive(.refreshFailed(.sessionRevoked)) { $0 = .signedOut(.sessionRevoked) }
    system.finish()
  }

  @Test func signingOutCancelsTheSignInInFlight() {
    let (system, _) = Self.make()
    system.send(.signIn(Self.ada)) { $0 = .signingIn(Self.ada) }
    system.advance(by: .milliseconds(200))
    system.send(.signOut) { $0 = .signedOut(nil) }
    #expect(system.effectsInFlight.isEmpty)
    system.advance(by: .seconds(1))  // the server's answer never arrives
    let cancelled = system.timeline.entries.compactMap { entry -> String? in
      guard case .effectCancelled(let id) = entry.kind else { return nil }
      return id.feedback.name
    }
    #expect(cancelled == ["sign in"])
    system.finish()
  }

  @Test func signingOutCancelsTheExpiryTimer() {
    let (system, _) = Self.make()
    Self.signIn(system)
    system.send(.signOut) { $0 = .signedOut(nil) }
    #expect(system.effectsInFlight.isEmpty)
    system.advance(by: .seconds(60))
    system.finish()
  }

  @Test func theTransitions() {
    let transitions = TransitionAssertions(reduceReturning: SignIn.reduce)
    let session = Self.session(1)
    transitions.assertThat(from: .signedOut(nil), on: .signIn(Self.ada), newStateIs: .signingIn(Self.ada))
    transitions.assertThat(from: .signingIn(Self.ada), on: .signedIn(session), newStateIs: .signedIn(session))
    transitions.assertThat(
      from: .signingIn(Self.ada), on: .signInFailed(.unavailable), newStateIs: .signedOut(.unavailable))
    transitions.assertThat(from: .signedIn(session), on: .tokenExpired, newStateIs: .refreshing(session))
    transitions.assertThat(
      from: .refreshing(session), on: .refreshFailed(.sessionRevoked), newStateIs: .signedOut(.sessionRevoked))
    transitions.assertThat(from: .refreshing(session), on: .signOut, newStateIs: .signedOut(nil))
    transitions.assertThatStateIsUnchanged(from: .signingIn(Self.ada), on: .signIn(Self.ada))
    transitions.assertThatStateIsUnchanged(from: .signedOut(nil), on: .tokenExpired)
    transitions.assertThatStateIsUnchanged(from: .signedIn(session), on: .refreshed(Self.session(2)))
  }
}
