import FeedbackLoop
import SignInExample

/// Signing in, in a terminal: `i` signs in, `w` tries a wrong password, `o`
/// signs out, `v` has the server revoke every session.
enum SignInDemo {
  static let example = Example(
    name: "sign-in",
    summary:
      "The ReactiveFeedback talk's stateful environment: signing in, a token that expires and refreshes, signed out on failure",
    run: run
  )

  static let bindings = [
    KeyBinding(keys: "i", action: "sign in as ada"), KeyBinding(keys: "w", action: "sign in with a wrong password"),
    KeyBinding(keys: "o", action: "sign out"), KeyBinding(keys: "v", action: "the server revokes every session"),
  ]

  static let wrongPassword = Credentials(username: "ada", password: "babbage")

  static func describe(_ state: SignIn.State) -> String {
    switch state {
    case .signedOut(nil): "signed out"
    case .signedOut(let failure?): "signed out: \(describe(failure))"
    case .signingIn(let credentials): "signing in as \(credentials.username)…"
    case .signedIn(let session):
      "signed in as \(session.username) with \(session.accessToken), valid for \(session.lifetime)"
    case .refreshing(let session): "\(session.accessToken) expired: refreshing…"
    }
  }

  static func describe(_ failure: SignInFailure) -> String {
    switch failure {
    case .invalidCredentials: "wrong user name or password"
    case .sessionRevoked: "the server revoked the session"
    case .unavailable: "the server could not be reached"
    }
  }

  static func describe(_ event: SignIn.Event) -> String {
    switch event {
    case .signedIn(let session): "signedIn(\(session.username), \(session.accessToken))"
    case .refreshed(let session): "refreshed(\(session.accessToken))"
    case .signInFailed(let failure): "signInFailed(\(failure))"
    case .refreshFailed(let failure): "refreshFailed(\(failure))"
    default: "\(event)"
    }
  }

  static func makePrinter(_ session: ExampleSession, now: @escaping @Sendable () -> Duration) -> TimelinePrinter<
    SignIn.State, SignIn.Event
  > {
    TimelinePrinter(console: session.console, now: now, describeState: describe, describeEvent: describe)
  }

  static func makeSystem(
    _ session: ExampleSession, auth: SimulatedAuthService, environment: SystemEnvironment,
    printer: TimelinePrinter<SignIn.State, SignIn.Event>
  ) async throws -> System<SignIn.State, SignIn.Event> {
    System(
      initial: .signedOut(nil), reduceReturning: SignIn.reduce, feedbacks: SignIn.feedbacks(auth: auth),
      environment: environment, monitor: try await session.monitor(printer, name: example.name))
  }

  static let serverLine =
    "The server answers in 0.5 s; its tokens last 10 s; it knows ada, whose password is lovelace."

  static func run(_ session: ExampleSession) async throws {
    if session.isInteractive {
      example.printHeader(session, time: Example.interactiveTime + "\n" + serverLine)
      let auth = SimulatedAuthService(clock: ContinuousClock())
      let printer = makePrinter(session, now: RealTime().now)
      let signIn = try await makeSystem(session, auth: auth, environment: SystemEnvironment(), printer: printer)
      await Interactive.run(session, bindings: bindings) { key in
        switch key {
        case .character("i"): signIn.send(.signIn(SimulatedAuthService.knownUser))
        case .character("w"): signIn.send(.signIn(wrongPassword))
        case .character("o"): signIn.send(.signOut)
        case .character("v"):
          auth.revokeSessions()
          printer.note("server", "revoked every session: the next refresh will fail")
        default: return .unknown
        }
        return .handled
      }
      signIn.stop()
    } else {
      example.printHeader(session, time: ScriptClock.description + "\n" + serverLine)
      let clock = ScriptClock()
      let script = Script(console: session.console, clock: clock)
      let auth = SimulatedAuthService(clock: clock.clock)
      let printer = makePrinter(session, now: clock.now)
      let signIn = try await makeSystem(session, auth: auth, environment: clock.environment, printer: printer)
      script.act {}
      script.say("Sign in with a wrong password: the server refuses, and the user stays signed out, with the reason.")
      script.act { signIn.send(.signIn(wrongPassword)) }
      script.wait(.seconds(1))
      script.say("Sign in as ada: a token that lasts 10 s; the expiry feedback times it on the clock.")
      script.act { signIn.send(.signIn(SimulatedAuthService.knownUser)) }
      script.wait(.seconds(1))
      script.say("Wait: the token expires, the refresh feedback buys a new one, and its timer starts again.")
      script.wait(.seconds(10))
      script.say("The server revokes every session: the next refresh fails, and the user is signed out.")
      script.act {
        auth.revokeSessions()
        printer.note("server", "revoked every session: the next refresh will fail")
      }
      script.wait(.seconds(11))
      script.say("Sign in again, and sign out before the server answers: signing out cancels the sign-in in flight.")
      script.act { signIn.send(.signIn(SimulatedAuthService.knownUser)) }
      script.wait(.milliseconds(200))
      script.act { signIn.send(.signOut) }
      script.wait(.seconds(1))
      script.act { signIn.stop() }
      session.console.line("\nThe session ends \(describe(signIn.state)). In a terminal, press the keys yourself.")
    }
  }
}
