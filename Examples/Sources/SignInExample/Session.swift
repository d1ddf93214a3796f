/// A signed-in user's session: an access token that expires, and a refresh
/// token that buys a new one.
public struct Session: Hashable, Sendable {
  /// The signed-in user.
  public var username: String
  /// The token requests carry; it expires after ``lifetime``.
  public var accessToken: String
  /// How long the access token lasts from when it was issued.
  public var lifetime: Duration
  /// The token that buys a new access token.
  public var refreshToken: String

  /// A session of `username` with the given tokens.
  public init(username: String, accessToken: String, lifetime: Duration, refreshToken: String) {
    self.username = username
    self.accessToken = accessToken
    self.lifetime = lifetime
    self.refreshToken = refreshToken
  }
}
