import Hummingbird
import Logging
import NIOCore
import Prometheus
import SearchExample
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The search API the search example talks to: an HTTP server, with
/// Hummingbird, on 127.0.0.1, over a ``MovieCatalog``.
///
/// `GET /search?q=star&page=2` answers page 2 of the movies whose titles
/// contain "star", as JSON (a ``SearchExample/Page``). Each answer can be
/// made to wait (``latency``), so that a person sees a page load and a new
/// search cancel it; and the server can be put in an outage, answering 503
/// (``setOutage(_:)``), so that a failure and a retry can be seen.
///
/// Given a Prometheus registry, it also answers `GET /metrics` with the
/// registry's text: the figures that the process's systems count into it
/// (``metrics``).
///
/// ```swift
/// let server = SearchServer(latency: .milliseconds(300))
/// let port = try await server.start()  // port 0: the system picks a free port
/// let api = HTTPSearchAPI(baseURL: "http://127.0.0.1:\(port)")
/// // ...
/// await server.stop()
/// ```
public final class SearchServer: Sendable {
  /// The address the server listens on: loopback only.
  public static let host = "127.0.0.1"

  /// The movies the server searches.
  public let catalog: MovieCatalog
  /// How many movies a page holds.
  public let pageSize: Int
  /// How long each answer waits before it is sent.
  public let latency: Duration
  /// The registry whose figures `GET /metrics` answers, if any.
  ///
  /// The server does not bootstrap swift-metrics: the app does, once per
  /// process, with the same registry
  /// (`MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))`),
  /// and a test hands its systems a factory of its own registry instead.
  public let metrics: PrometheusCollectorRegistry?
  let clock: any Clock<Duration>
  private let onRequest: @Sendable (ServedRequest) -> Void
  private let isOutage = Mutex(false)
  private let running = Mutex<(task: Task<Void, Never>, port: Int)?>(nil)

  /// A server of `catalog`, not started yet.
  ///
  /// - Parameters:
  ///   - catalog: the movies to search.
  ///   - pageSize: how many movies a page holds.
  ///   - latency: how long each answer waits, on `clock`.
  ///   - clock: the clock the latency is measured on; a test passes a test clock.
  ///   - metrics: the registry `GET /metrics` answers with; `nil`, the
  ///     default, serves no `/metrics`.
  ///   - onRequest: called with each request answered, on the server's threads.
  public init(
    catalog: MovieCatalog = .standard,
    pageSize: Int = 20,
    latency: Duration = .zero,
    clock: any Clock<Duration> = ContinuousClock(),
    metrics: PrometheusCollectorRegistry? = nil,
    onRequest: @escaping @Sendable (ServedRequest) -> Void = { _ in }
  ) {
    self.catalog = catalog
    self.pageSize = pageSize
    self.latency = latency
    self.clock = clock
    self.metrics = metrics
    self.onRequest = onRequest
  }

  /// The port the server listens on, while it runs.
  public var port: Int? { running.withLock { $0?.port } }

  /// The server's address, such as `http://127.0.0.1:8080`, while it runs.
  public var baseURL: String? { port.map { "http://\(Self.host):\($0)" } }

  /// Puts the server in an outage (every answer is a 503), or ends it.
  public func setOutage(_ outage: Bool) {
    isOutage.withLock { $0 = outage }
  }

  /// Whether the server is in an outage.
  public var outage: Bool { isOutage.withLock { $0 } }

  /// Starts listening on 127.0.0.1 and returns the port.
  ///
  /// - Parameter port: the port to listen on; 0 (the default) lets the
  ///   system pick a free one.
  /// - Throws: ``SearchServerError/portInUse(_:)`` when another program
  ///   listens on `port`; ``SearchServerError/couldNotStart(_:)`` otherwise.
  public func start(port: Int = 0) async throws -> Int {
    let (outcomes, outcome) = AsyncStream<Result<Int, SearchServerError>>.makeStream()
    var logger = Logger(label: "search-server")
    // Stopping cancels the server's tasks, which Hummingbird logs as errors.
    logger.logLevel = .critical
    let application = Application(
      router: router(),
      configuration: ApplicationConfiguration(
        address: .hostname(Self.host, port: port), serverName: "FeedbackLoop search", reuseAddress: false),
      onServerRunning: { channel in
        outcome.yield(.success(channel.localAddress?.port ?? port))
      },
      logger: logger
    )
    let task = Task {
      do {
        try await application.run()
        outcome.yield(.failure(.couldNotStart("it stopped as it started")))
      } catch {
        outcome.yield(.failure(Self.startFailure(error, port: port)))
      }
      outcome.finish()
    }
    var first: Result<Int, SearchServerError> = .failure(.couldNotStart("no answer"))
    for await result in outcomes {
      first = result
      break
    }
    switch first {
    case .success(let boundPort):
      let started = running.withLock { running -> Bool in
        guard running == nil else { return false }
        running = (task, boundPort)
        return true
      }
      guard started else {
        task.cancel()
        throw SearchServerError.alreadyRunning
      }
      return boundPort
    case .failure(let error):
      task.cancel()
      _ = await task.value
      throw error
    }
  }

  /// Stops the server and waits until it has stopped.
  public func stop() async {
    guard
      let task = running.withLock({ running in
        defer { running = nil }; return running?.task
      })
    else { return }
    task.cancel()
    await task.value
  }

  /// Tells the owner of the server about a request it answered.
  func report(_ request: ServedRequest) {
    onRequest(request)
  }

  private static func startFailure(_ error: any Error, port: Int) -> SearchServerError {
    if let ioError = error as? IOError, ioError.errnoCode == EADDRINUSE {
      return .portInUse(port)
    }
    return .couldNotStart(String(describing: error))
  }
}
