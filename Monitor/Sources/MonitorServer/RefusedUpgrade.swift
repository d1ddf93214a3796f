import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1

/// The page's server: HTTP with the WebSocket upgrade, where a handshake the
/// monitor refuses (wrong secret, another site's `Origin`) is answered 403
/// Forbidden before the upgrade is tried.
///
/// hummingbird-websocket answers every refused upgrade 400 Bad Request by
/// itself, whatever the router says; a handler just after the HTTP decoder
/// answers such a handshake first, and leaves the pipeline at the first
/// request it lets through (the upgrade, or plain HTTP, then takes over).
struct RefusingUpgradeChannel: ServerChildChannel {
  typealias Value = HTTP1WebSocketUpgradeChannel.Value

  let upgrade: HTTP1WebSocketUpgradeChannel
  /// Whether a WebSocket handshake may go on.
  let allows: @Sendable (HTTPRequestHead) -> Bool

  func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
    upgrade.setup(channel: channel, logger: logger).flatMapThrowing { value in
      let decoder = try channel.pipeline.syncOperations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
      try channel.pipeline.syncOperations.addHandler(RefusedUpgradeHandler(allows: allows), position: .after(decoder))
      return value
    }
  }

  func handle(value: Value, logger: Logger) async {
    await upgrade.handle(value: value, logger: logger)
  }
}

extension HTTPServerBuilder {
  /// HTTP with the WebSocket upgrade; a handshake that `allows` refuses is answered 403.
  static func http1WebSocketUpgrade(
    webSocketRouter: Router<BasicWebSocketRequestContext>,
    refusing allows: @escaping @Sendable (HTTPRequestHead) -> Bool
  ) -> HTTPServerBuilder {
    let webSocketResponder = webSocketRouter.buildResponder()
    return HTTPServerBuilder { responder in
      RefusingUpgradeChannel(
        upgrade: HTTP1WebSocketUpgradeChannel(
          responder: responder, webSocketResponder: webSocketResponder, configuration: .init()),
        allows: allows)
    }
  }
}

/// Answers 403 to a refused WebSocket handshake and closes the connection;
/// lets anything else through, and then leaves the pipeline.
final class RefusedUpgradeHandler: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias InboundOut = HTTPServerRequestPart
  typealias OutboundOut = HTTPServerResponsePart

  private let allows: @Sendable (HTTPRequestHead) -> Bool
  private var refusing = false

  init(allows: @escaping @Sendable (HTTPRequestHead) -> Bool) {
    self.allows = allows
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    guard !refusing else { return }
    guard case .head(let head) = unwrapInboundIn(data) else {
      context.fireChannelRead(data)
      return
    }
    let isHandshake = head.headers[canonicalForm: "upgrade"].contains { $0.lowercased() == "websocket" }
    guard isHandshake, !allows(head) else {
      context.fireChannelRead(data)
      context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
      return
    }
    refusing = true
    let body = ByteBuffer(string: "the page's WebSocket wants the secret, from the page's own origin")
    let headers = HTTPHeaders([
      ("content-type", "text/plain; charset=utf-8"), ("content-length", "\(body.readableBytes)"),
      ("connection", "close"),
    ])
    context.write(
      wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .forbidden, headers: headers))),
      promise: nil)
    context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
    let closing = NIOLoopBound(context, eventLoop: context.eventLoop)
    context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in closing.value.close(promise: nil) }
  }
}
