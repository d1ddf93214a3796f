import FeedbackLoop
import FeedbackLoopDebugging
import FeedbackLoopMonitorProtocol
import Foundation
import NIOCore
import NIOExtras
import NIOPosix
import Testing

@testable import FeedbackLoopMonitorClient
@testable import MonitorServer

@Suite struct MonitorProtocolTests {
  /// A raw TCP connection to the monitor's application port.
  func connect(_ port: Int) async throws -> NIOAsyncChannel<ByteBuffer, ByteBuffer> {
    try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).connect(host: "127.0.0.1", port: port) {
      channel in
      channel.eventLoop.makeCompletedFuture {
        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineBasedFrameDecoder()))
        return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
      }
    }
  }

  @Test("a malformed line is rejected with a reason; a hello without the secret closes the connection")
  func wrongSecretAndGarbage() async throws {
    let server = MonitorServer()
    let ports = try await server.start()
    let connection = try await connect(ports.app)
    let answers = try await connection.executeThenClose { inbound, outbound in
      try await outbound.write(ByteBuffer(string: "{\"type\": \n"))
      try await outbound.write(ByteBuffer(string: #"{"type":"hello","secret":"guess","system":"x"}"# + "\n"))
      var answers: [String] = []
      for try await line in inbound { answers.append(String(buffer: line)) }
      return answers
    }
    #expect(answers.count == 2)
    #expect(answers.first?.contains("not JSON") == true)
    #expect(answers.last?.contains("the first message must be a hello with the secret") == true)
    #expect(await server.hub.liveSystems.isEmpty)
    await server.stop()
  }

  @Test("an application streams what it recorded before connecting, then live; the page's history has it all")
  func historyThenLive() async throws {
    let server = MonitorServer()
    let ports = try await server.start()
    let harness = Harness()
    let recorder = Recorder<PagedSearch.State, PagedSearch.Event>(system: "search")
    let system = harness.search(recorder: recorder)
    harness.recordTwoPages(system)
    let client = try await MonitorClient.connect(
      port: ports.app, secret: server.secret, system: system, recorder: recorder)
    system.send(.loadNextPage)
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: .seconds(30))
    var moments: [UInt64] = []
    while clock.now < deadline {
      moments = await server.hub.messages.compactMap { line in
        guard case .success(let message) = decodeMonitorLine(PageMessage.self, line) else { return nil }
        return message.moment
      }
      if moments.count == 6 { break }
      try await Task.sleep(for: .milliseconds(20))
    }
    #expect(moments == [0, 1, 2, 3, 4, 5])
    #expect(await server.hub.liveSystems == ["search"])
    await client.close()
    await server.stop()
  }

  @Test("commands the client cannot apply are rejected with a reason, and the system goes on")
  func badCommands() {
    let harness = Harness()
    let recorder = Recorder<PagedSearch.State, PagedSearch.Event>()
    let system = harness.search(recorder: recorder)
    let machine = TimeMachine(system: system, recorder: recorder)
    #expect(MonitorClient.apply("nope", machine: machine, system: system) == "not JSON")
    #expect(MonitorClient.apply(#"{"type":"jump"}"#, machine: machine, system: system) == "jump without a state")
    #expect(
      MonitorClient.apply(#"{"type":"jump","state":{"query":3}}"#, machine: machine, system: system)?
        .hasPrefix("the state does not decode") == true)
    #expect(
      MonitorClient.apply(#"{"type":"playStates","from":99}"#, machine: machine, system: system)
        == "moment 99 is no longer recorded")
    #expect(
      MonitorClient.apply(#"{"type":"fly"}"#, machine: machine, system: system)?.hasPrefix("bad field type") == true)
    #expect(
      MonitorClient.apply(#"{"type":"send","event":{"search":{"_0":"ok"}}}"#, machine: machine, system: system) == nil)
    #expect(system.state.query == "ok")
  }

  @Test("the page wants the secret: a fixture request with a wrong one is refused")
  func fixturesNeedTheSecret() async throws {
    let server = MonitorServer()
    let ports = try await server.start()
    var request = URLRequest(url: URL(string: "http://127.0.0.1:\(ports.page)/api/fixtures?secret=wrong")!)
    request.httpMethod = "POST"
    request.httpBody = Data("{}".utf8)
    let (_, response) = try await URLSession.shared.data(for: request)
    #expect((response as? HTTPURLResponse)?.statusCode == 403)
    let (page, _) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(ports.page)/")!)
    #expect(String(decoding: page, as: UTF8.self).contains("<title>FeedbackLoop monitor</title>"))
    await server.stop()
  }
}

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif
