/// The server the sign-in loop talks to.
public protocol AuthService: Sendable {
  /// Signs in with `credentials`; throws ``SignInFailure/invalidCredentials``
  /// when they are wrong.
  func signIn(_ credentials: Credentials) async throws -> Session

  /// Buys `session` a new access token; throws ``SignInFailure/sessionRevoked``
  /// when the server no longer accepts its refresh token.
  func refresh(_ session: Session) async throws -> Session
}
