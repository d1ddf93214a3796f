import FeedbackLoop
import FeedbackLoopDebugging
import Foundation
import Testing

@testable import FeedbackLoopMonitorClient
@testable import MonitorServer

/// What `MonitorClient.connect` says when the monitor does not take the
/// application: it throws, rather than returning a link the monitor has closed.
struct MonitorClientConnectionTests {
  @Test("a wrong secret: connect throws the monitor's refusal")
  func wrongSecret() async throws {
    let server = MonitorServer()
    let ports = try await server.start()
    let harness = Harness()
    let recorder = Recorder<PagedSearch.State, PagedSearch.Event>(system: "search", clock: harness.clock)
    let system = harness.search(recorder: recorder)
    await #expect(throws: MonitorConnectionError.rejected(reason: "the first message must be a hello with the secret"))
    {
      _ = try await MonitorClient.connect(port: ports.app, secret: "not the secret", system: system, recorder: recorder)
    }
    // An empty secret, and one that only starts like the right one, are refused the same way.
    for secret in ["", String(server.secret.dropLast())] {
      await #expect(throws: MonitorConnectionError.self) {
        _ = try await MonitorClient.connect(port: ports.app, secret: secret, system: system, recorder: recorder)
      }
    }
    // The monitor has no such application; the right secret is still welcome.
    #expect(await server.hub.liveSystems.isEmpty)
    let link = try await MonitorClient.connect(
      port: ports.app, secret: server.secret, system: system, recorder: recorder)
    await link.close()
    system.stop()
    await server.stop()
  }

  @Test(
    "the page's port given for the applications': connect throws, saying nothing answered there",
    .timeLimit(.minutes(1)))
  func pagePortInstead() async throws {
    let server = MonitorServer()
    let ports = try await server.start()
    let harness = Harness()
    let recorder = Recorder<PagedSearch.State, PagedSearch.Event>(system: "search", clock: harness.clock)
    let system = harness.search(recorder: recorder)
    // The page's web server waits for the rest of an HTTP request that never comes.
    await #expect(throws: MonitorConnectionError.noAnswer(port: ports.page, waited: .milliseconds(300))) {
      _ = try await MonitorClient.connect(
        port: ports.page, secret: server.secret, system: system, recorder: recorder,
        welcomeTimeLimit: .milliseconds(300))
    }
    let answered = MonitorConnectionError.noAnswer(port: ports.page, waited: .seconds(10)).description
    #expect(answered.contains("nothing on port \(ports.page) answered") && answered.contains("applications:"))
    system.stop()
    await server.stop()
  }

  @Test(
    "closing the link sends what waits for the network first: the monitor has every moment",
    .timeLimit(.minutes(1)))
  func closeSendsEverything() async throws {
    let server = MonitorServer()
    let ports = try await server.start()
    let harness = Harness()
    let recorder = Recorder<PagedSearch.State, PagedSearch.Event>(system: "search", clock: harness.clock)
    let system = harness.search(recorder: recorder)
    let link = try await MonitorClient.connect(
      port: ports.app, secret: server.secret, system: system, recorder: recorder)
    for index in 0..<200 { system.send(.search("query \(index)")) }
    await link.close()
    // The monitor has read the connection to its end once the app is gone from it.
    while await server.hub.liveSystems.contains("search") { try await Task.sleep(for: .milliseconds(10)) }
    let lines: [String] = await server.hub.messages
    let messages: [PageMessage] = lines.compactMap { line in
      try? JSONDecoder().decode(PageMessage.self, from: Data(line.utf8))
    }
    let moments = messages.filter { message in
      message.type == .activity && message.system == "search" && message.moment != nil
    }
    #expect(moments.count == 201)
    system.stop()
    await server.stop()
  }
}
