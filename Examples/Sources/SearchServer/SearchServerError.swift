/// Why the search server did not start.
public enum SearchServerError: Error, Equatable, Sendable, CustomStringConvertible {
  /// Another program listens on this port already.
  case portInUse(Int)
  /// The server could not listen, for another reason.
  case couldNotStart(String)
  /// ``SearchServer/start(port:)`` was called on a server that runs already.
  case alreadyRunning

  /// The error as the command prints it.
  public var description: String {
    switch self {
    case .portInUse(let port):
      "port \(port) on 127.0.0.1 is in use: choose another with --port, or leave --port out to let the system pick a free one"
    case .couldNotStart(let reason):
      "the search server could not start: \(reason)"
    case .alreadyRunning:
      "the search server runs already"
    }
  }
}
