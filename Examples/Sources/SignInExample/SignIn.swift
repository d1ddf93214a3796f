/// The ReactiveFeedback talk's "stateful environment": a user's authentication.
///
/// The talk names user authentication as what plain reactive streams model
/// badly: whether a request may go out depends on a state that changes by
/// itself (a token expires) and by what the requests answer. As a feedback
/// loop it is four states and three feedbacks:
///
/// ```text
///  signedOut ──signIn──▶ signingIn ──signedIn──▶ signedIn ──tokenExpired──▶ refreshing
///      ▲                     │                     ▲                            │
///      └────signInFailed─────┘                     └──────────refreshed─────────┤
///      ▲                                                                        │
///      └───────────────────────────────refreshFailed────────────────────────────┘
/// ```
///
/// | feedback | query | effect |
/// | --- | --- | --- |
/// | sign in | the credentials, while signing in | ask the ``AuthService``; `.signedIn` or `.signInFailed` |
/// | token expiry | the access token, while signed in | wait its lifetime on the clock; `.tokenExpired` |
/// | refresh | the refresh token, while refreshing | ask for a new token; `.refreshed` or `.refreshFailed` |
///
/// Signing out makes every query `nil`, which cancels whatever runs: a
/// sign-in in flight, the expiry timer, a refresh.
///
/// ```swift
/// let auth = SimulatedAuthService(clock: ContinuousClock())
/// let session = System(initial: SignIn.State.signedOut(nil), reduceReturning: SignIn.reduce, feedbacks: SignIn.feedbacks(auth: auth))
/// session.send(.signIn(Credentials(username: "ada", password: "lovelace")))
/// ```
public enum SignIn {}
