extension SignIn {
  /// Where the user's authentication is.
  public enum State: Hashable, Sendable {
    /// Nobody is signed in; the failure says why, if it was not by choice.
    case signedOut(SignInFailure?)
    /// The credentials are on their way to the server.
    case signingIn(Credentials)
    /// Signed in, with a token that is valid for its lifetime.
    case signedIn(Session)
    /// The access token expired; a new one is on its way.
    case refreshing(Session)

    /// The credentials to send, while signing in: the query of the sign-in feedback.
    public var credentialsToSend: Credentials? {
      guard case .signingIn(let credentials) = self else { return nil }
      return credentials
    }

    /// The session whose access token runs out, while signed in: the query
    /// of the expiry timer. A new token is a new query, which restarts it.
    public var sessionToExpire: Session? {
      guard case .signedIn(let session) = self else { return nil }
      return session
    }

    /// The session to refresh, while refreshing: the query of the refresh feedback.
    public var sessionToRefresh: Session? {
      guard case .refreshing(let session) = self else { return nil }
      return session
    }
  }
}
