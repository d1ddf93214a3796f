/// Why a person is signed out against their will.
public enum SignInFailure: Error, Hashable, Sendable {
  /// The user name or the password is wrong.
  case invalidCredentials
  /// The server no longer accepts the refresh token (it revoked the session).
  case sessionRevoked
  /// The server could not be reached, or answered nonsense.
  case unavailable
}
