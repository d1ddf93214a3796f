import FeedbackLoopDebugging
import FeedbackLoopMonitorProtocol
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOExtras
import NIOHTTP1
import NIOPosix

/// The monitor: serves the page and its WebSocket over HTTP, and listens for
/// applications on a TCP port of its own. Both listen on loopback unless
/// told otherwise, and both want the per-run secret: it can change a running
/// application's state, so nobody else may connect. A browser's request for
/// the page's WebSocket or its fixtures export must also come from the
/// page's own origin (``PageOrigin``): another site's page is refused, 403.
///
/// ```swift
/// let monitor = MonitorServer()
/// let ports = try await monitor.start()
/// print("open http://127.0.0.1:\(ports.page)/?secret=\(monitor.secret)")
/// ```
public final class MonitorServer: Sendable {
  public let hub: MonitorHub
  public let secret: String
  public let host: String
  private let running = Locked<(tasks: [Task<Void, Never>], ports: Ports)?>(nil)
  /// The page's own origin, known once its port is bound (nil before: only
  /// requests without an `Origin` are let through then).
  private let pageOrigin = Locked<PageOrigin?>(nil)

  /// Where the page and the applications connect.
  public struct Ports: Sendable, Hashable {
    public var page: Int
    public var app: Int
  }

  /// - Parameters:
  ///   - host: where to listen; loopback unless the user says otherwise.
  ///   - secret: the secret; a random one for each run by default. It must
  ///     not be empty: an empty secret presented (`?secret=`) would match it.
  public init(host: String = "127.0.0.1", secret: String = MonitorServer.makeSecret(), hub: MonitorHub = MonitorHub()) {
    if secret.isEmpty {
      fatalError("the monitor's secret is empty: anyone could connect with an empty one; leave it out for a random one")
    }
    self.host = host
    self.secret = secret
    self.hub = hub
  }

  /// 32 random hexadecimal digits.
  public static func makeSecret() -> String {
    var generator = SystemRandomNumberGenerator()
    return (0..<4).map { _ in String(generator.next() as UInt32, radix: 16).leftPadded(to: 8) }.joined()
  }

  /// The folder of the page's files.
  public static var pageFolder: String {
    Bundle.module.resourceURL!.appendingPathComponent("Page").path
  }

  /// Starts both listeners (port 0: any free port) and returns their ports.
  public func start(pagePort: Int = 0, appPort: Int = 0) async throws -> Ports {
    var logger = Logger(label: "feedbackloop-monitor")
    logger.logLevel = .critical
    let (pageBound, pageBinding) = AsyncStream<Result<Int, any Error>>.makeStream()
    let application = Application(
      router: router(),
      server: .http1WebSocketUpgrade(
        webSocketRouter: webSocketRouter(),
        refusing: { [secret, pageOrigin] head in Self.handshakeAllowed(head, secret: secret, pageOrigin: pageOrigin) }),
      configuration: ApplicationConfiguration(
        address: .hostname(host, port: pagePort), serverName: "feedbackloop-monitor", reuseAddress: false),
      onServerRunning: { [pageOrigin, host] channel in
        let port = channel.localAddress?.port ?? pagePort
        pageOrigin.withLock { $0 = PageOrigin(host: host, port: port) }
        pageBinding.yield(.success(port))
      },
      logger: logger)
    let pageTask = Task {
      do {
        try await application.run()
      } catch {
        pageBinding.yield(.failure(error))
      }
      pageBinding.finish()
    }
    var page: Result<Int, any Error> = .failure(MonitorProtocolError(reason: "the page server did not start"))
    for await result in pageBound {
      page = result
      break
    }
    let pagePortBound: Int
    switch page {
    case .success(let port): pagePortBound = port
    case .failure(let error):
      pageTask.cancel()
      throw ListenError(host: host, port: pagePort, listener: .page, underlying: error)
    }

    let appServer: NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, ByteBuffer>, Never>
    do {
      appServer = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
        .bind(host: host, port: appPort) { channel in
          channel.eventLoop.makeCompletedFuture { try AppConnection.channel(channel) }
        }
    } catch {
      // The page listens already: stopped, so that a monitor that failed to start holds no port.
      pageTask.cancel()
      await pageTask.value
      throw ListenError(host: host, port: appPort, listener: .applications, underlying: error)
    }
    let appPortBound = appServer.channel.localAddress?.port ?? appPort
    let hub = hub
    let secret = secret
    let appTask = Task<Void, Never> {
      _ = try? await appServer.executeThenClose { connections in
        try await withThrowingDiscardingTaskGroup { group in
          for try await connection in connections {
            group.addTask { await AppConnection.serve(connection, hub: hub, secret: secret) }
          }
        }
      }
    }
    let ports = Ports(page: pagePortBound, app: appPortBound)
    running.withLock { $0 = ([pageTask, appTask], ports) }
    return ports
  }

  /// Stops both listeners and every connection.
  public func stop() async {
    guard
      let tasks = running.withLock({ running in
        defer { running = nil }; return running?.tasks
      })
    else { return }
    for task in tasks { task.cancel() }
    for task in tasks { await task.value }
  }

  private func router() -> Router<BasicRequestContext> {
    let router = Router()
    router.add(middleware: FileMiddleware(Self.pageFolder, searchForIndexHtml: true))
    let secret = secret
    let pageOrigin = pageOrigin
    // Fixtures: the page posts the moments chosen and the names to use; the
    // answer is the Swift Testing file FixtureTestWriter writes.
    router.post("/api/fixtures") { request, context -> Response in
      guard secretMatches(request.uri.queryParameters["secret"].map(String.init), secret) else {
        return Response(status: .forbidden, body: .init(byteBuffer: ByteBuffer(string: "wrong secret")))
      }
      guard Self.fromThePage(request, pageOrigin) else {
        return Response(status: .forbidden, body: .init(byteBuffer: ByteBuffer(string: "another site's page")))
      }
      let body = try await request.body.collect(upTo: 16 << 20)
      switch decodeMonitorLine(FixtureRequest.self, String(buffer: body)) {
      case .failure(let error):
        return Response(status: .badRequest, body: .init(byteBuffer: ByteBuffer(string: error.reason)))
      case .success(let fixtureRequest):
        let source = try fixtureRequest.writer.source(for: fixtureRequest.fixtures)
        return Response(
          status: .ok, headers: [.contentType: "text/x-swift; charset=utf-8"],
          body: .init(byteBuffer: ByteBuffer(string: source)))
      }
    }
    return router
  }

  private func webSocketRouter() -> Router<BasicWebSocketRequestContext> {
    let router = Router(context: BasicWebSocketRequestContext.self)
    let secret = secret
    let hub = hub
    let pageOrigin = pageOrigin
    router.ws("/live") { request, _ in
      secretMatches(request.uri.queryParameters["secret"].map(String.init), secret)
        && Self.fromThePage(request, pageOrigin) ? .upgrade([:]) : .dontUpgrade
    } onUpgrade: { inbound, outbound, _ in
      let id = UUID()
      await hub.addPage(id) { line in try? await outbound.write(.text(line)) }
      do {
        for try await message in inbound.messages(maxSize: 16 << 20) {
          guard case .text(let text) = message else {
            try? await outbound.write(.text(Self.rejection("binary messages are not commands")))
            continue
          }
          switch decodeMonitorLine(PageCommand.self, text) {
          case .failure(let error):
            try? await outbound.write(.text(Self.rejection(error.reason)))
          case .success(let command):
            if let reason = await hub.forward(command) {
              try? await outbound.write(.text(Self.rejection(reason)))
            }
          }
        }
      } catch {}
      await hub.removePage(id)
    }
    return router
  }

  /// Whether `request` comes from the page's own origin, or from no browser
  /// at all (no `Origin`: the secret alone guards it); see ``PageOrigin``.
  static func fromThePage(_ request: Request, _ pageOrigin: Locked<PageOrigin?>) -> Bool {
    fromThePage(origin: request.headers[.origin], host: request.head.authority, pageOrigin)
  }

  static func fromThePage(origin: String?, host: String?, _ pageOrigin: Locked<PageOrigin?>) -> Bool {
    guard let page = pageOrigin.withLock({ $0 }) else { return origin == nil }
    return page.allows(origin: origin, host: host)
  }

  /// Whether a WebSocket handshake may go on to the upgrade: one for the
  /// page's socket wants the secret and the page's origin (refused, it is
  /// answered 403; see ``RefusingUpgradeChannel``); others go on, and the
  /// upgrade refuses them.
  static func handshakeAllowed(_ head: HTTPRequestHead, secret: String, pageOrigin: Locked<PageOrigin?>) -> Bool {
    let uri = URI(head.uri)
    guard uri.path == "/live" else { return true }
    return secretMatches(uri.queryParameters["secret"].map(String.init), secret)
      && fromThePage(origin: head.headers.first(name: "origin"), host: head.headers.first(name: "host"), pageOrigin)
  }

  static func rejection(_ reason: String) -> String {
    (try? PageMessage(type: .rejected, reason: reason).monitorLine()) ?? #"{"type":"rejected"}"#
  }
}

/// What the page posts to export fixtures.
struct FixtureRequest: Sendable, Codable {
  var suite: String
  var module: String
  var stateType: String
  var eventType: String
  var reducer: String
  var inPlace: Bool
  var fixtures: [Fixture<JSONValue, FixtureEvent>]

  /// An empty module: the test goes into the module that declares the types,
  /// and imports nothing `@testable`.
  var writer: FixtureTestWriter {
    let module = module.trimmingCharacters(in: .whitespaces)
    return FixtureTestWriter(
      suite: suite, module: module.isEmpty ? nil : module, stateType: stateType, eventType: eventType,
      reducer: reducer, reducerStyle: inPlace ? .inPlace : .returning)
  }
}

/// An event as the page sends it, JSON, named in a generated test's title as
/// its JSON (`moment 3: {"loadNextPage":{}}`) rather than as the cases of
/// ``JSONValue``.
struct FixtureEvent: Sendable, Codable, CustomStringConvertible {
  var json: JSONValue

  init(from decoder: any Decoder) throws {
    json = try decoder.singleValueContainer().decode(JSONValue.self)
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(json)
  }

  var description: String { (try? json.monitorLine()) ?? "\(json)" }
}

extension String {
  func leftPadded(to length: Int) -> String {
    count >= length ? self : String(repeating: "0", count: length - count) + self
  }
}

/// A lock around a value.
final class Locked<Value: Sendable>: @unchecked Sendable {
  // Sendable: `value` is only touched while `lock` is held.
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) { self.value = value }

  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
