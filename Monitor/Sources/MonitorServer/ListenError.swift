import NIOCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why the monitor could not listen: which of its two listeners, on which
/// address and port, and what the system said. A port another program holds
/// (another monitor still running, often) is named as such.
///
/// ```swift
/// do {
///   _ = try await MonitorServer().start(pagePort: 7_070, appPort: 7_071)
/// } catch let error as MonitorServer.ListenError {
///   print(error)  // cannot listen on 127.0.0.1:7070 for the page: the port is already in use
/// }
/// ```
extension MonitorServer {
  public struct ListenError: Error, Sendable, CustomStringConvertible {
    /// Which listener could not start.
    public enum Listener: String, Sendable, Hashable {
      /// The page and its WebSocket.
      case page = "the page"
      /// The applications' TCP port.
      case applications = "applications"
    }

    public var host: String
    public var port: Int
    public var listener: Listener
    /// What the system said.
    public var underlying: any Error

    /// Whether another program holds the port.
    public var portInUse: Bool {
      if let error = underlying as? IOError { return error.errnoCode == EADDRINUSE }
      return "\(underlying)".contains("Address already in use")
    }

    public var description: String {
      let reason = portInUse ? "the port is already in use (another monitor still running?)" : "\(underlying)"
      return "cannot listen on \(host):\(port) for \(listener.rawValue): \(reason)"
    }
  }
}
