import FeedbackLoop
import FeedbackLoopDebugging
import FeedbackLoopMonitorClient
import Synchronization

/// A running monitor to stream an example to (`--monitor`, `--secret`): the
/// address and the secret it printed for applications.
public struct MonitorTarget: Sendable, Hashable {
  public var host: String
  public var port: Int
  public var secret: String

  /// `PORT` or `HOST:PORT`, as `--monitor` takes it; nil when it is neither.
  public init?(address: String, secret: String) {
    let parts = address.split(separator: ":", omittingEmptySubsequences: false)
    guard let last = parts.last, let port = Int(last), (1...65_535).contains(port), parts.count <= 2 else {
      return nil
    }
    self.host = parts.count == 2 ? String(parts[0]) : "127.0.0.1"
    self.port = port
    self.secret = secret
  }
}

/// The examples' links to the monitor, closed when the example ends so that
/// every moment reaches it.
final class MonitorLinks: Sendable {
  private let links = Mutex<[MonitorClient]>([])

  func add(_ link: MonitorClient) { links.withLock { $0.append(link) } }

  /// Sends what waits, then closes each link.
  func closeAll() async {
    for link in links.withLock({ links in
      defer { links = [] }; return links
    }) {
      await link.close()
    }
  }
}

extension ExampleSession {
  /// The monitor to give the example's system: the timeline printer's, and,
  /// with `--monitor`, a recorder whose timeline streams to the monitor as
  /// the system `name`, watch-only (the examples' types are not `Codable`:
  /// the page reads them from their structure).
  ///
  /// - Throws: ``MonitorStreamFailure`` (a wrong secret, nothing listening)
  ///   before the example starts.
  func monitor<State: Sendable & Equatable, Event: Sendable>(
    _ printer: TimelinePrinter<State, Event>, name: String
  ) async throws -> SystemMonitor<State, Event> {
    guard let target = monitorTarget else { return printer.monitor }
    let recorder = Recorder<State, Event>(capacity: 10_000, system: name)
    let link: MonitorClient
    do {
      link = try await MonitorClient.stream(
        host: target.host, port: target.port, secret: target.secret, recorder: recorder, serializer: .reflected)
    } catch let refused as MonitorConnectionError {
      throw MonitorStreamFailure(description: "\(refused)")
    } catch {
      throw MonitorStreamFailure(
        description:
          "cannot reach a monitor at \(target.host):\(target.port) (is feedbackloop-monitor running?): \(error)")
    }
    monitorLinks.add(link)
    return .combining([printer.monitor, recorder.monitor])
  }
}

/// Why an example could not stream to the monitor, in one line.
public struct MonitorStreamFailure: Error, Equatable, CustomStringConvertible {
  public var description: String
}
