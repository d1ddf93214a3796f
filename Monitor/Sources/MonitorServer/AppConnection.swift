import FeedbackLoopDebugging
import FeedbackLoopMonitorProtocol
import NIOCore
import NIOExtras

/// One application's connection: a hello with the secret first, then its
/// activity; every line that is not a message is rejected with a reason, and
/// the connection goes on. A line longer than ``maximumLine`` closes it.
enum AppConnection {
  /// The longest line accepted (a state of a few MiB is still fine).
  static let maximumLine = 16 << 20

  /// The app port's framing: one message a line, and never more than
  /// `maximumLine` bytes held for a line that has not ended.
  ///
  /// `LineBasedFrameDecoder` has no limit of its own: alone, it buffers a
  /// line that never ends until memory runs out, and does so before the
  /// hello's secret is checked. NIO's `ByteToMessageHandler` bounds it
  /// (`maximumBufferSize`: each time the decoder needs more data, the bytes
  /// it holds are counted, and past the bound it fails with
  /// `PayloadTooLargeError`, holding nothing more), so no decoder of our own
  /// is needed. What it holds is then at most the bound plus one read.
  ///
  /// The bound is one byte more than the line: a line of the longest length
  /// ending in CR LF holds its CR while the LF is still to come (a read may
  /// end between them). A line of one byte more that does end is rejected
  /// by ``serve(_:hub:secret:)``.
  static func lineDecoder(maximumLine: Int = maximumLine) -> ByteToMessageHandler<LineBasedFrameDecoder> {
    ByteToMessageHandler(LineBasedFrameDecoder(), maximumBufferSize: maximumLine + 1)
  }

  /// An application's connection on `channel`: its lines (see
  /// ``lineDecoder(maximumLine:)``), of which at most two whole ones wait to
  /// be taken before the monitor stops reading. `NIOAsyncChannel` lets ten
  /// wait by default: a client that does not read its answers (so that the
  /// connection waits to write them) could then have the monitor hold ten
  /// longest lines, and one more being read, before its secret is checked.
  static func channel(_ channel: any Channel, maximumLine: Int = maximumLine) throws -> NIOAsyncChannel<
    ByteBuffer, ByteBuffer
  > {
    try channel.pipeline.syncOperations.addHandler(lineDecoder(maximumLine: maximumLine))
    return try NIOAsyncChannel(
      wrappingChannelSynchronously: channel,
      configuration: .init(backPressureStrategy: .init(lowWatermark: 1, highWatermark: 2)))
  }

  static func serve(_ connection: NIOAsyncChannel<ByteBuffer, ByteBuffer>, hub: MonitorHub, secret: String) async {
    try? await connection.executeThenClose { inbound, outbound in
      let reply: @Sendable (AppCommand) async -> Void = { command in
        if let line = try? command.monitorLine() { try? await outbound.write(ByteBuffer(string: line + "\n")) }
      }
      var registered: (system: String, connection: MonitorHub.AppID)?
      do {
        for try await buffer in inbound {
          // A whole line that came in one read may pass the decoder's bound by a read's length.
          guard buffer.readableBytes <= maximumLine else {
            await reply(AppCommand(type: .rejected, reason: "line longer than \(maximumLine) bytes"))
            continue
          }
          let line = String(buffer: buffer)
          let message: AppMessage
          switch decodeMonitorLine(AppMessage.self, line) {
          case .failure(let error):
            await reply(AppCommand(type: .rejected, reason: error.reason))
            continue
          case .success(let decoded): message = decoded
          }
          guard let connected = registered?.system else {
            guard message.type == .hello, secretMatches(message.secret, secret), let name = message.system else {
              await reply(AppCommand(type: .rejected, reason: "the first message must be a hello with the secret"))
              return
            }
            let id = await hub.addApp(system: name, diagram: message.diagram) { line in
              try? await outbound.write(ByteBuffer(string: line + "\n"))
            }
            registered = (name, id)
            await reply(AppCommand(type: .welcome))
            continue
          }
          switch message.type {
          case .activity:
            guard let activity = message.message else {
              await reply(AppCommand(type: .rejected, reason: "activity without a message"))
              continue
            }
            await hub.publish(
              PageMessage(type: .activity, system: connected, moment: message.moment, message: activity))
          case .rejected:
            await hub.publish(PageMessage(type: .rejected, system: connected, reason: message.reason))
          case .hello:
            await reply(AppCommand(type: .rejected, reason: "already said hello"))
          }
        }
      } catch is ByteToMessageDecoderError.PayloadTooLargeError {
        await reply(
          AppCommand(type: .rejected, reason: "line longer than \(maximumLine) bytes without a newline: closing"))
      } catch {
        // The application went away (reset, or the monitor stopping): it is removed below all the same.
      }
      if let registered { await hub.removeApp(registered.connection, system: registered.system) }
    }
  }
}
