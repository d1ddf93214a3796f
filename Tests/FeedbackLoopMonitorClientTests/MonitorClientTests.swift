import FeedbackLoop
import FeedbackLoopDebugging
import FeedbackLoopMonitorProtocol
import Foundation
import Testing

@testable import FeedbackLoopMonitorClient

/// The client against a stand-in monitor on loopback: the handshake, one
/// line per moment, the monitor's commands, and every way a connection ends.
/// Each step awaits the line the other end wrote; nothing waits on time.
@Suite(.timeLimit(.minutes(1))) struct MonitorClientTests {
  /// A counter connected to `monitor`, welcomed; the lines the monitor reads
  /// from it, after the hello.
  struct Connected {
    var counter: System<Counter.State, Counter.Event>
    var link: MonitorClient
    var peer: LoopbackPeer
    var lines: AsyncStream<String>.Iterator
    var hello: AppMessage
  }

  func connect(to monitor: LoopbackMonitor, secret: String = "s3cret") async throws -> Connected {
    let (counter, recorder) = Counter.running()
    let connecting = Task {
      try await MonitorClient.connect(port: monitor.port, secret: secret, system: counter, recorder: recorder)
    }
    let peer = try await monitor.accept()
    var lines = peer.lines.makeAsyncIterator()
    let hello = try #require(await lines.next().map { try decoded(AppMessage.self, $0) })
    peer.send(#"{"type":"welcome"}"#)
    return Connected(counter: counter, link: try await connecting.value, peer: peer, lines: lines, hello: hello)
  }

  @Test("the hello carries the secret and the system's id; after the welcome, one line per moment, in order")
  func handshakeThenOneLinePerMoment() async throws {
    let monitor = try LoopbackMonitor()
    var connected = try await connect(to: monitor)
    #expect(connected.hello.type == .hello)
    #expect(connected.hello.secret == "s3cret")
    #expect(connected.hello.system == "counter")

    connected.counter.send(.increment)
    connected.counter.send(.increment)
    var moments: [(UInt64?, InspectionMessage.Kind?, JSONValue?)] = []
    while moments.count < 3, let line = await connected.lines.next() {
      let message = try decoded(AppMessage.self, line)
      #expect(message.type == .activity)
      moments.append((message.moment, message.message?.kind, message.message?.state))
    }
    #expect(moments.map(\.0) == [0, 1, 2])
    #expect(moments.map(\.1) == [.started, .reduced, .reduced])
    #expect(moments.map(\.2) == [0, 1, 2].map { JSONValue.object(["count": .number(Double($0))]) })

    // Closing sends what waits, then ends the client's side: the monitor reads to the end, then closes its own.
    let link = connected.link
    async let closed: Void = link.close()
    #expect(await connected.lines.next() == nil)
    connected.peer.close()
    await closed
    connected.counter.stop()
    monitor.close()
  }

  @Test("a monitor that never closes its side: close() cuts the connection off after the linger limit, and returns")
  func monitorThatNeverClosesIsCutOff() async throws {
    let monitor = try LoopbackMonitor()
    var connected = try await MonitorConnection.$lingerTimeLimit.withValue(.milliseconds(20)) {
      try await connect(to: monitor)
    }
    // The peer reads the client's end and keeps its own side open: close()
    // returns only because the client stops waiting and shuts both ways.
    await connected.link.close()
    var moments = 0
    while let line = await connected.lines.next() {
      #expect(try decoded(AppMessage.self, line).type == .activity)
      moments += 1
    }
    #expect(moments == 1)  // the counter's start, written before the client ended its side
    connected.peer.close()
    connected.counter.stop()
    monitor.close()
  }

  @Test("a jump from the monitor sets the state, and its moment comes back; a command it cannot apply, why")
  func commandsFromTheMonitor() async throws {
    let monitor = try LoopbackMonitor()
    var connected = try await connect(to: monitor)
    #expect(try decoded(AppMessage.self, await connected.lines.next()).moment == 0)

    connected.peer.send(#"{"type":"jump","state":{"count":7}}"#)
    let jumped = try decoded(AppMessage.self, await connected.lines.next())
    #expect(jumped.moment == 1)
    #expect(jumped.message?.state == .object(["count": .number(7)]))
    #expect(connected.counter.state == Counter.State(count: 7))

    connected.peer.send(#"{"type":"fly"}"#)
    let refused = try decoded(AppMessage.self, await connected.lines.next())
    #expect(refused.type == .rejected)
    #expect(refused.reason?.hasPrefix("bad field type") == true)
    #expect(connected.link.rejectedCommands == [refused.reason])

    let link = connected.link
    async let closed: Void = link.close()
    #expect(await connected.lines.next() == nil)
    connected.peer.close()
    await closed
    connected.counter.stop()
    monitor.close()
  }

  @Test("a wrong secret: the monitor's refusal is thrown, and the connection is closed")
  func rejectedSecretThrows() async throws {
    let monitor = try LoopbackMonitor()
    let (counter, recorder) = Counter.running()
    let connecting = Task {
      try await MonitorClient.connect(port: monitor.port, secret: "wrong", system: counter, recorder: recorder)
    }
    let peer = try await monitor.accept()
    var lines = peer.lines.makeAsyncIterator()
    #expect(try decoded(AppMessage.self, await lines.next()).secret == "wrong")
    peer.send(#"{"type":"rejected","reason":"the first message must be a hello with the secret"}"#)
    await #expect(throws: MonitorConnectionError.rejected(reason: "the first message must be a hello with the secret"))
    {
      _ = try await connecting.value
    }
    // The client closed its side: nothing more comes.
    #expect(await lines.next() == nil)
    peer.close()
    counter.stop()
    monitor.close()
  }

  @Test("what answers the hello is not the monitor: thrown, with its first line")
  func notTheMonitorThrows() async throws {
    let monitor = try LoopbackMonitor()
    let (counter, recorder) = Counter.running()
    let connecting = Task {
      try await MonitorClient.connect(port: monitor.port, secret: "s3cret", system: counter, recorder: recorder)
    }
    let peer = try await monitor.accept()
    var lines = peer.lines.makeAsyncIterator()
    _ = await lines.next()
    peer.send("HTTP/1.1 400 Bad Request")
    await #expect(
      throws: MonitorConnectionError.notTheMonitor(port: monitor.port, firstLine: "HTTP/1.1 400 Bad Request")
    ) {
      _ = try await connecting.value
    }
    peer.close()
    counter.stop()
    monitor.close()
  }

  @Test("the monitor closes before its answer: thrown as closed before the welcome")
  func closedBeforeWelcomeThrows() async throws {
    let monitor = try LoopbackMonitor()
    let (counter, recorder) = Counter.running()
    let connecting = Task {
      try await MonitorClient.connect(port: monitor.port, secret: "s3cret", system: counter, recorder: recorder)
    }
    let peer = try await monitor.accept()
    var lines = peer.lines.makeAsyncIterator()
    _ = await lines.next()
    peer.close()
    await #expect(throws: MonitorConnectionError.closedBeforeWelcome(port: monitor.port)) {
      _ = try await connecting.value
    }
    counter.stop()
    monitor.close()
  }

  @Test("the monitor closes the connection: the client's connection ends by itself, and the system runs on")
  func monitorClosingEndsTheClient() async throws {
    let monitor = try LoopbackMonitor()
    var connected = try await connect(to: monitor)
    _ = await connected.lines.next()
    connected.peer.close()
    // Ends without close(): the client saw the monitor's end, wrote nothing more, and closed its socket.
    await connected.link.connection.waitForEnd()
    connected.counter.send(.increment)
    #expect(connected.counter.state == Counter.State(count: 1))
    #expect(connected.link.droppedCount == 0)
    await connected.link.close()
    connected.counter.stop()
    monitor.close()
  }

  @Test("nothing listens on the port: the network's refusal is thrown, naming the address")
  func nothingListeningThrows() async throws {
    let monitor = try LoopbackMonitor()
    let port = monitor.port
    monitor.close()
    let (counter, recorder) = Counter.running()
    let error = await #expect(throws: MonitorNetworkError.self) {
      _ = try await MonitorClient.connect(port: port, secret: "s3cret", system: counter, recorder: recorder)
    }
    #expect(error?.host == "127.0.0.1")
    #expect(error?.port == port)
    #expect(error?.description.hasPrefix("cannot connect to 127.0.0.1:\(port): ") == true)
    counter.stop()
  }

  @Test("a name that does not resolve: the resolver's reason is thrown")
  func unknownHostThrows() async throws {
    let (counter, recorder) = Counter.running()
    await #expect(throws: MonitorNetworkError.self) {
      _ = try await MonitorClient.connect(
        host: "no-such-host.invalid", port: 7_071, secret: "s3cret", system: counter, recorder: recorder)
    }
    counter.stop()
  }
}

func decoded<Value: Decodable>(_ type: Value.Type, _ line: String?) throws -> Value {
  try decodeMonitorLine(type, try #require(line)).get()
}
