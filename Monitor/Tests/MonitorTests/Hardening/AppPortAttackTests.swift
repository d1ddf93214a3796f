import FeedbackLoopMonitorProtocol
import Foundation
import NIOCore
import NIOEmbedded
import Testing

@testable import MonitorServer

/// What a hostile client tries on the application port, past the longest
/// line: a line ending in CR LF split between reads, a line that never ends
/// after a good hello.
@Suite struct AppPortAttackTests {
  /// Every line the monitor sends on `connection` after `written`, until it closes it.
  static func answers(port: Int, _ written: [ByteBuffer]) async throws -> [String] {
    let connection = try await RawConnection.open(port)
    return try await connection.executeThenClose { inbound, outbound in
      for buffer in written { try await outbound.write(buffer) }
      var answers: [String] = []
      do {
        for try await line in inbound { answers.append(String(buffer: line)) }
      } catch {
        answers.append("error: \(error)")
      }
      return answers
    }
  }

  @Test("a line of the longest length ending in CR LF, split between the two, still comes through")
  func carriageReturnAtTheLimit() throws {
    let channel = EmbeddedChannel(handler: AppConnection.lineDecoder(maximumLine: 8))
    try channel.writeInbound(ByteBuffer(string: "12345678\r"))
    try channel.writeInbound(ByteBuffer(string: "\n"))
    #expect(try channel.readInbound(as: ByteBuffer.self) == ByteBuffer(string: "12345678"))
    #expect(try channel.finish().isClean)
  }

  @Test(
    "a line that never ends after a good hello is told why, closed, and its system goes offline",
    .timeLimit(.minutes(1)))
  func endlessLineAfterTheHello() async throws {
    let server = MonitorServer()
    let ports = try await server.start()
    let hello = try AppMessage(type: .hello, secret: server.secret, system: "greedy", diagram: "").monitorLine()
    var written = [ByteBuffer(string: hello + "\n")]
    let chunk = ByteBuffer(repeating: UInt8(ascii: "a"), count: 1 << 20)
    written += Array(repeating: chunk, count: AppConnection.maximumLine / chunk.readableBytes + 1)
    let answers = try await Self.answers(port: ports.app, written)
    let welcome = try AppCommand(type: .welcome).monitorLine()
    let rejection = try AppCommand(
      type: .rejected,
      reason: "line longer than \(AppConnection.maximumLine) bytes without a newline: closing"
    ).monitorLine()
    // Closed with bytes it did not read, the monitor's socket resets: the client may see that after the answers.
    #expect(Array(answers.prefix(2)) == [welcome, rejection])
    #expect(answers.dropFirst(2).allSatisfy { $0.hasPrefix("error: ") })
    #expect(await server.hub.liveSystems.isEmpty)
    #expect(await server.hub.connections(serving: "greedy") == 0)
    await server.stop()
  }

  @Test(
    "a line one byte longer than the longest, ended, is rejected and the connection goes on",
    .timeLimit(.minutes(1)))
  func endedLineOneByteTooLong() async throws {
    let server = MonitorServer()
    let ports = try await server.start()
    let hello = try AppMessage(type: .hello, secret: server.secret, system: "long", diagram: "").monitorLine()
    let tooLong = ByteBuffer(repeating: UInt8(ascii: "a"), count: AppConnection.maximumLine + 1)
    let connection = try await RawConnection.open(ports.app)
    let answers = try await connection.executeThenClose { inbound, outbound in
      try await outbound.write(ByteBuffer(string: hello + "\n"))
      for piece in [
        tooLong.getSlice(at: 0, length: 1 << 20)!,
        tooLong.getSlice(at: 1 << 20, length: tooLong.readableBytes - (1 << 20))!,
      ] {
        try await outbound.write(piece)
      }
      try await outbound.write(ByteBuffer(string: "\r\n"))
      var lines = inbound.makeAsyncIterator()
      let answers = [try await lines.next(), try await lines.next()].map { $0.map { String(buffer: $0) } }
      // Still connected, the app is still live.
      #expect(await server.hub.liveSystems == ["long"])
      return answers
    }
    let rejection = try AppCommand(
      type: .rejected, reason: "line longer than \(AppConnection.maximumLine) bytes"
    ).monitorLine()
    #expect(answers == [try AppCommand(type: .welcome).monitorLine(), rejection])
    await server.stop()
  }

  @Test("connections that never say hello keep no application out", .timeLimit(.minutes(1)))
  func silentConnectionsKeepNobodyOut() async throws {
    let server = MonitorServer()
    let ports = try await server.start()
    var silent: [NIOAsyncChannel<ByteBuffer, ByteBuffer>] = []
    for _ in 0..<32 {
      let connection = try await RawConnection.open(ports.app)
      try await connection.channel.writeAndFlush(ByteBuffer(string: "{\"type\":\"hel"))
      silent.append(connection)
    }
    let hello = try AppMessage(type: .hello, secret: server.secret, system: "welcome", diagram: "").monitorLine()
    let connection = try await RawConnection.open(ports.app)
    let answer = try await connection.executeThenClose { inbound, outbound in
      try await outbound.write(ByteBuffer(string: hello + "\n"))
      var lines = inbound.makeAsyncIterator()
      return try await lines.next().map { String(buffer: $0) }
    }
    #expect(answer == (try AppCommand(type: .welcome).monitorLine()))
    for connection in silent { try await connection.channel.close() }
    await server.stop()
  }
}
