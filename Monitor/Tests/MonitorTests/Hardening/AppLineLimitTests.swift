import FeedbackLoopMonitorProtocol
import Foundation
import NIOCore
import NIOEmbedded
import Testing

@testable import MonitorServer

/// The application port holds at most `AppConnection.maximumLine` bytes of a
/// line that has not ended: a client that never sends a newline is closed
/// once it passes that, before its secret is looked at, instead of growing
/// the monitor's memory for as long as it sends.
@Suite struct AppLineLimitTests {
  @Test("the app port's decoder holds no more than the longest line, then fails and holds nothing more")
  func decoderIsBounded() throws {
    let channel = EmbeddedChannel(handler: AppConnection.lineDecoder(maximumLine: 8))
    // The longest line, and a byte for the CR of a CR LF that may still come.
    try channel.writeInbound(ByteBuffer(string: "123456789"))
    #expect(try channel.readInbound(as: ByteBuffer.self) == nil)
    #expect(throws: ByteToMessageDecoderError.PayloadTooLargeError.self) {
      try channel.writeInbound(ByteBuffer(string: "0"))
    }
    // Failed, it keeps nothing of what still comes: each read is handed back in the error, not added up.
    let more = ByteBuffer(repeating: UInt8(ascii: "a"), count: 1 << 20)
    do {
      try channel.writeInbound(more)
      Issue.record("the decoder took more bytes after failing")
    } catch ByteToMessageDecoderError.dataReceivedInErrorState(_, let refused) {
      #expect(refused.readableBytes == more.readableBytes)
    }
    _ = try? channel.finish()
  }

  /// Counts the reads asked of the connection (what its socket would do).
  final class ReadCounter: ChannelOutboundHandler {
    typealias OutboundIn = Any
    var reads = 0
    func read(context: ChannelHandlerContext) {
      reads += 1
      context.read()
    }
  }

  @Test("the app port stops reading while two whole lines wait, so a client that is not answered cannot pile them up")
  func wholeLinesWaitingAreBounded() throws {
    let channel = EmbeddedChannel()
    let counter = ReadCounter()
    try channel.pipeline.syncOperations.addHandler(counter)
    let connection = try AppConnection.channel(channel, maximumLine: 8)
    try channel.writeInbound(ByteBuffer(string: "12345678\n"))
    channel.read()
    #expect(counter.reads == 1, "one line waiting: reading goes on")
    try channel.writeInbound(ByteBuffer(string: "12345678\n"))
    channel.read()
    #expect(counter.reads == 1, "two lines waiting: reading waits until they are taken")
    _ = connection
    _ = try? channel.finish()
  }

  @Test(
    "a burst of lines in one write is read to its end: reading goes on once the waiting lines are taken",
    .timeLimit(.minutes(1)))
  func burstIsReadToTheEnd() async throws {
    let server = MonitorServer()
    let ports = try await server.start()
    let hello = try AppMessage(type: .hello, secret: server.secret, system: "burst", diagram: "").monitorLine()
    let burst = hello + "\n" + String(repeating: "not a message\n", count: 2_000)
    let connection = try await RawConnection.open(ports.app)
    let answers = try await connection.executeThenClose { inbound, outbound in
      try await outbound.write(ByteBuffer(string: burst))
      var answers = 0
      for try await _ in inbound {
        answers += 1
        if answers == 2_001 { break }
      }
      return answers
    }
    #expect(answers == 2_001)
    await server.stop()
  }

  @Test("lines up to the longest one, whole or in pieces, still come through")
  func linesUpToTheLimitPass() throws {
    let channel = EmbeddedChannel(handler: AppConnection.lineDecoder(maximumLine: 8))
    try channel.writeInbound(ByteBuffer(string: "1234567\n12345678\n1234"))
    try channel.writeInbound(ByteBuffer(string: "5678"))
    try channel.writeInbound(ByteBuffer(string: "\r\n"))
    #expect(try channel.readInbound(as: ByteBuffer.self) == ByteBuffer(string: "1234567"))
    #expect(try channel.readInbound(as: ByteBuffer.self) == ByteBuffer(string: "12345678"))
    #expect(try channel.readInbound(as: ByteBuffer.self) == ByteBuffer(string: "12345678"))
    #expect(try channel.readInbound(as: ByteBuffer.self) == nil)
    #expect(try channel.finish().isClean)
  }

  @Test(
    "a client that sends more than the longest line and a CR without a newline is told why and closed",
    .timeLimit(.minutes(1)))
  func endlessLineClosesTheConnection() async throws {
    let server = MonitorServer()
    let ports = try await server.start()
    let connection = try await RawConnection.open(ports.app)
    let answers = try await connection.executeThenClose { inbound, outbound in
      let chunk = ByteBuffer(repeating: UInt8(ascii: "a"), count: 1 << 20)
      var sent = 0
      while sent < AppConnection.maximumLine {
        try await outbound.write(chunk)
        sent += chunk.readableBytes
      }
      try await outbound.write(ByteBuffer(string: "aa"))
      // The monitor closes the connection: the loop ends (without the bound, it waits for good).
      var answers: [String] = []
      do {
        for try await line in inbound { answers.append(String(buffer: line)) }
      } catch {
        answers.append("error: \(error)")
      }
      return answers
    }
    let rejection = try AppCommand(
      type: .rejected,
      reason: "line longer than \(AppConnection.maximumLine) bytes without a newline: closing"
    ).monitorLine()
    #expect(answers == [rejection])
    #expect(await server.hub.liveSystems.isEmpty)
    await server.stop()
  }

  @Test("a hello one byte under the longest line is welcomed", .timeLimit(.minutes(1)))
  func longHelloIsWelcomed() async throws {
    let server = MonitorServer()
    let ports = try await server.start()
    let empty = try AppMessage(type: .hello, secret: server.secret, system: "big", diagram: "").monitorLine()
    let diagram = String(repeating: "x", count: AppConnection.maximumLine - 1 - empty.utf8.count)
    let hello = try AppMessage(type: .hello, secret: server.secret, system: "big", diagram: diagram).monitorLine()
    #expect(hello.utf8.count == AppConnection.maximumLine - 1)
    let connection = try await RawConnection.open(ports.app)
    let answer = try await connection.executeThenClose { inbound, outbound in
      try await outbound.write(ByteBuffer(string: hello + "\n"))
      var lines = inbound.makeAsyncIterator()
      return try await lines.next().map { String(buffer: $0) }
    }
    #expect(answer == (try AppCommand(type: .welcome).monitorLine()))
    await server.stop()
  }
}
