import FeedbackLoop
import FeedbackLoopDebugging
import FeedbackLoopMonitorProtocol
import Foundation
import Testing

@testable import FeedbackLoopMonitorClient
@testable import MonitorServer

/// Two applications serving one system (the same app started twice, or one
/// that reconnects before its old connection is noticed gone): the system is
/// live while either is connected, and the page's commands go to one that is.
@Suite struct SameNameAppsTests {
  struct App {
    let system: System<PagedSearch.State, PagedSearch.Event>
    let client: MonitorClient
  }

  static func connect(_ server: MonitorServer, port: Int) async throws -> App {
    let harness = Harness()
    let recorder = Recorder<PagedSearch.State, PagedSearch.Event>(system: "search")
    let system = harness.search(recorder: recorder)
    let client = try await MonitorClient.connect(port: port, secret: server.secret, system: system, recorder: recorder)
    return App(system: system, client: client)
  }

  /// Waits, in real time (the network's), until `condition` holds; false if it never does.
  static func eventually(_ condition: () async -> Bool) async throws -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: .seconds(30))
    while clock.now < deadline {
      if await condition() { return true }
      try await Task.sleep(for: .milliseconds(20))
    }
    return await condition()
  }

  static func offlineMessages(_ hub: MonitorHub) async -> Int {
    await hub.messages.count { line in
      guard case .success(let message) = decodeMonitorLine(PageMessage.self, line) else { return false }
      return message.type == .system && message.live == false
    }
  }

  static func search(_ query: String) -> PageCommand {
    PageCommand(type: .send, system: "search", event: .object(["search": .object(["_0": .string(query)])]))
  }

  @Test(
    "when one of two apps with one name goes, the system stays live and commands reach the other",
    arguments: [true, false])
  func oneOfTwoGoes(olderGoes: Bool) async throws {
    let server = MonitorServer()
    let ports = try await server.start()
    let older = try await Self.connect(server, port: ports.app)
    #expect(try await Self.eventually { await server.hub.connections(serving: "search") == 1 })
    let newer = try await Self.connect(server, port: ports.app)
    #expect(try await Self.eventually { await server.hub.connections(serving: "search") == 2 })
    let (leaving, staying) = olderGoes ? (older, newer) : (newer, older)

    await leaving.client.close()
    #expect(try await Self.eventually { await server.hub.connections(serving: "search") == 1 })
    #expect(await server.hub.liveSystems == ["search"])
    #expect(await Self.offlineMessages(server.hub) == 0, "the page was told the system is offline")
    #expect(await server.hub.forward(Self.search("still here")) == nil)
    #expect(try await Self.eventually { staying.system.state.query == "still here" })
    #expect(leaving.system.state.query == "")

    await staying.client.close()
    #expect(try await Self.eventually { await server.hub.connections(serving: "search") == 0 })
    #expect(await server.hub.liveSystems.isEmpty)
    #expect(await Self.offlineMessages(server.hub) == 1)
    #expect(await server.hub.forward(Self.search("gone")) == "no application search is connected")
    await server.stop()
  }
}
