import Synchronization

/// An authentication server in memory, whose answers take `latency` on a
/// clock: the one the example runs, on a real clock or a test clock.
///
/// It knows one user, `ada`, whose password is `lovelace`. Its tokens are
/// numbered in the order it issues them, so that runs are reproducible.
/// ``revokeSessions()`` plays an administrator who revokes every session:
/// the next refresh fails.
public final class SimulatedAuthService: AuthService {
  /// The one user the server knows.
  public static let knownUser = Credentials(username: "ada", password: "lovelace")

  /// The clock the answers take their time on.
  public let clock: any Clock<Duration>
  /// How long an answer takes.
  public let latency: Duration
  /// How long an access token lasts.
  public let tokenLifetime: Duration

  private struct Books {
    var issued = 0
    var revoked: Set<String> = []
    var refreshTokens: Set<String> = []
  }

  private let books = Mutex(Books())

  /// A server whose answers take `latency` on `clock` and whose tokens
  /// last `tokenLifetime`.
  public init(
    clock: any Clock<Duration>, latency: Duration = .milliseconds(500), tokenLifetime: Duration = .seconds(10)
  ) {
    self.clock = clock
    self.latency = latency
    self.tokenLifetime = tokenLifetime
  }

  /// Takes ``latency``, then issues a session for ``knownUser``, or throws
  /// ``SignInFailure/invalidCredentials``.
  public func signIn(_ credentials: Credentials) async throws -> Session {
    try await clock.sleep(for: latency)
    guard credentials == Self.knownUser else { throw SignInFailure.invalidCredentials }
    return books.withLock { books in
      books.issued += 1
      let refreshToken = "refresh-\(books.issued)"
      books.refreshTokens.insert(refreshToken)
      return Session(
        username: credentials.username, accessToken: "token-\(books.issued)", lifetime: tokenLifetime,
        refreshToken: refreshToken)
    }
  }

  /// Takes ``latency``, then issues a new access token, or throws
  /// ``SignInFailure/sessionRevoked`` after ``revokeSessions()``.
  public func refresh(_ session: Session) async throws -> Session {
    try await clock.sleep(for: latency)
    return try books.withLock { books in
      guard books.refreshTokens.contains(session.refreshToken), !books.revoked.contains(session.refreshToken) else {
        throw SignInFailure.sessionRevoked
      }
      books.issued += 1
      var renewed = session
      renewed.accessToken = "token-\(books.issued)"
      renewed.lifetime = tokenLifetime
      return renewed
    }
  }

  /// Revokes every session issued so far: their next refresh fails.
  public func revokeSessions() {
    books.withLock { $0.revoked.formUnion($0.refreshTokens) }
  }
}
