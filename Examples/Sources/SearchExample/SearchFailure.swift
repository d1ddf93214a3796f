/// Why a page did not load.
public enum SearchFailure: Error, Hashable, Sendable, CustomStringConvertible {
  /// The server answered with an error status, such as 503 during an outage.
  case server(status: Int)
  /// The server could not be reached.
  case unreachable
  /// The server's answer was not a page.
  case invalidResponse

  /// The failure as a person reads it: `the server answered 503`.
  public var description: String {
    switch self {
    case .server(let status): "the server answered \(status)"
    case .unreachable: "the server could not be reached"
    case .invalidResponse: "the server's answer was not a page"
    }
  }
}
