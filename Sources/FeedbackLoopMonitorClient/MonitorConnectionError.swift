/// Why the monitor did not take an application's connection.
///
/// It grows (a new way to be refused, in a minor version): a `switch` over
/// it ends with `default:`.
///
/// ```swift
/// do {
///   link = try await MonitorClient.connect(port: 7_071, secret: secret, system: search, recorder: recorder)
/// } catch let error as MonitorConnectionError {
///   print(error)  // the monitor refused the connection: the first message must be a hello with the secret …
/// }
/// ```
public enum MonitorConnectionError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The monitor answered the hello with a refusal, and why: a wrong secret, most often.
  case rejected(reason: String)
  /// The connection closed before the monitor answered the hello.
  case closedBeforeWelcome(port: Int)
  /// What answered the hello does not speak the monitor's protocol (the
  /// page's port given for the applications', say); its first line.
  case notTheMonitor(port: Int, firstLine: String)
  /// Nothing answered the hello in the time allowed: what listens on the
  /// port is not the monitor (or is stuck).
  case noAnswer(port: Int, waited: Duration)

  public var description: String {
    switch self {
    case .rejected(let reason):
      "the monitor refused the connection: \(reason) (is the secret the one this monitor printed?)"
    case .closedBeforeWelcome(let port):
      "the connection to port \(port) closed before the monitor welcomed the application"
    case .notTheMonitor(let port, let firstLine):
      "port \(port) is not the monitor's port for applications (it answered \"\(firstLine)\"); "
        + "the monitor prints that port after \"applications:\""
    case .noAnswer(let port, let waited):
      "nothing on port \(port) answered the application's hello within \(waited): is it the monitor's port for "
        + "applications? The monitor prints that port after \"applications:\""
    }
  }
}
