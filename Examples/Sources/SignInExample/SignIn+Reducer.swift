extension SignIn {
  /// The reducer: the only place the authentication state changes. An event
  /// that makes no sense in a state (a second sign-in while signing in, say)
  /// leaves it as it is.
  public static func reduce(_ state: State, _ event: Event) -> State {
    switch (state, event) {
    case (_, .signOut):
      .signedOut(nil)
    case (.signedOut, .signIn(let credentials)):
      .signingIn(credentials)
    case (.signingIn, .signedIn(let session)):
      .signedIn(session)
    case (.signingIn, .signInFailed(let failure)):
      .signedOut(failure)
    case (.signedIn(let session), .tokenExpired):
      .refreshing(session)
    case (.refreshing, .refreshed(let session)):
      .signedIn(session)
    case (.refreshing, .refreshFailed(let failure)):
      .signedOut(failure)
    default:
      state
    }
  }
}
