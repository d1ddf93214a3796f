extension SignIn {
  /// What can happen to the user's authentication.
  public enum Event: Hashable, Sendable {
    /// The person asks to sign in.
    case signIn(Credentials)
    /// The person signs out.
    case signOut
    /// The server accepted the credentials.
    case signedIn(Session)
    /// The server refused the credentials, or could not be reached.
    case signInFailed(SignInFailure)
    /// The access token's lifetime is over.
    case tokenExpired
    /// The server issued a new access token.
    case refreshed(Session)
    /// The server refused to refresh the session.
    case refreshFailed(SignInFailure)
  }
}
