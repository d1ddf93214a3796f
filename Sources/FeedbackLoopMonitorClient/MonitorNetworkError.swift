/// Why the client could not reach anything at the monitor's address: the
/// name does not resolve, nothing listens on the port, or nothing answered
/// in the time allowed. Once something accepts the connection, what goes
/// wrong is a ``MonitorConnectionError``.
///
/// ```swift
/// do {
///   link = try await MonitorClient.connect(port: 7_071, secret: secret, system: search, recorder: recorder)
/// } catch let error as MonitorNetworkError {
///   print(error)  // cannot connect to 127.0.0.1:7071: Connection refused
/// }
/// ```
public struct MonitorNetworkError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The address the client tried.
  public var host: String
  public var port: Int
  /// The system's words for what failed: "Connection refused", "Connection
  /// timed out", the resolver's "Name or service not known".
  public var reason: String

  public init(host: String, port: Int, reason: String) {
    self.host = host
    self.port = port
    self.reason = reason
  }

  public var description: String { "cannot connect to \(host):\(port): \(reason)" }
}
