import FeedbackLoopDebugging
import MonitorProtocol
import NIOCore

/// One application's connection: a hello with the secret first, then its
/// activity; every line that is not a message is rejected with a reason, and
/// the connection goes on.
enum AppConnection {
  /// The longest line accepted (a state of a few MiB is still fine).
  static let maximumLine = 16 << 20

  static func serve(_ connection: NIOAsyncChannel<ByteBuffer, ByteBuffer>, hub: MonitorHub, secret: String) async {
    try? await connection.executeThenClose { inbound, outbound in
      let reply: @Sendable (AppCommand) async -> Void = { command in
        if let line = try? command.monitorLine() { try? await outbound.write(ByteBuffer(string: line + "\n")) }
      }
      var system: String?
      for try await buffer in inbound {
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
        guard let connected = system else {
          guard message.type == .hello, message.secret == secret, let name = message.system else {
            await reply(AppCommand(type: .rejected, reason: "the first message must be a hello with the secret"))
            return
          }
          system = name
          await hub.addApp(system: name, diagram: message.diagram) { line in
            try? await outbound.write(ByteBuffer(string: line + "\n"))
          }
          await reply(AppCommand(type: .welcome))
          continue
        }
        switch message.type {
        case .activity:
          guard let activity = message.message else {
            await reply(AppCommand(type: .rejected, reason: "activity without a message"))
            continue
          }
          await hub.publish(PageMessage(type: .activity, system: connected, moment: message.moment, message: activity))
        case .rejected:
          await hub.publish(PageMessage(type: .rejected, system: connected, reason: message.reason))
        case .hello:
          await reply(AppCommand(type: .rejected, reason: "already said hello"))
        }
      }
      if let system { await hub.removeApp(system: system) }
    }
  }
}
