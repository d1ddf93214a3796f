/// What a person types to sign in.
public struct Credentials: Hashable, Sendable, CustomStringConvertible {
  /// The user's name.
  public var username: String
  /// The user's password.
  public var password: String

  /// Credentials for `username`.
  public init(username: String, password: String) {
    self.username = username
    self.password = password
  }

  /// The user name, never the password.
  public var description: String { "\(username) / \(String(repeating: "•", count: password.count))" }
}
