import FeedbackLoop
import FeedbackLoopDebugging
import Foundation
import Testing

@testable import FeedbackLoopMonitorClient
@testable import MonitorServer

/// A system whose types are not `Codable`, streamed to the monitor to be
/// watched (`MonitorClient.stream`, what the examples' `--monitor` uses),
/// its values read from their structure (`InspectionSerializer.reflected`).
struct StreamOnlyTests {
  struct Player: Sendable, Equatable {
    var title: String
    var position: Duration
    var chapters: [Int]
    var subtitles: String?
    var mode: Mode
  }

  enum Mode: Sendable, Equatable {
    case paused
    case playing(speed: Double, looping: Bool)
    case seeking(Int)
  }

  @Test("a value with no Codable conformance reads as JSON from its structure, enum cases as Codable writes them")
  func reflectedValues() {
    let player = Player(
      title: "Sunrise", position: .seconds(3), chapters: [1, 2], subtitles: nil,
      mode: .playing(speed: 1.5, looping: false))
    #expect(
      JSONValue(reflecting: player)
        == .object([
          "title": .string("Sunrise"), "position": .string("3.0 seconds"),
          "chapters": .array([.number(1), .number(2)]),
          "subtitles": .null,
          "mode": .object(["playing": .object(["speed": .number(1.5), "looping": .bool(false)])]),
        ]))
    #expect(JSONValue(reflecting: Mode.paused) == .object(["paused": .object([:])]))
    #expect(JSONValue(reflecting: Mode.seeking(4)) == .object(["seeking": .object(["_0": .number(4)])]))
    #expect(JSONValue(reflecting: ["b": 2]) == .object(["b": .number(2)]))
  }

  @Test("a system streamed watch-only: the monitor gets every moment; a command from the page is refused with why")
  func streamedWatchOnly() async throws {
    let server = MonitorServer()
    let ports = try await server.start()
    let recorder = Recorder<Player, Mode>(system: "player")
    let player = System(
      initial: Player(title: "Sunrise", position: .zero, chapters: [], subtitles: nil, mode: .paused),
      reduce: { state, mode in state.mode = mode }, feedbacks: [], monitor: recorder.monitor)
    player.send(.playing(speed: 1, looping: true))
    let link = try await MonitorClient.stream(
      port: ports.app, secret: server.secret, recorder: recorder, serializer: .reflected)
    player.send(.seeking(2))

    #expect(
      await server.hub.forward(PageCommand(type: .send, system: "player", event: .object(["paused": .object([:])])))
        == nil)
    while link.rejectedCommands.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
    #expect(link.rejectedCommands == ["this application streams its timeline only: it takes no commands"])
    #expect(player.state.mode == .seeking(2))
    await link.close()
    while await server.hub.liveSystems.contains("player") { try await Task.sleep(for: .milliseconds(10)) }

    let lines: [String] = await server.hub.messages
    let messages: [PageMessage] = lines.compactMap { try? JSONDecoder().decode(PageMessage.self, from: Data($0.utf8)) }
    let states = messages.filter { $0.moment != nil }.compactMap { $0.message?.state }
    #expect(states.count == 3)
    var lastMode: JSONValue?
    if case .object(let fields)? = states.last { lastMode = fields["mode"] }
    #expect(lastMode == .object(["seeking": .object(["_0": .number(2)])]))
    #expect(messages.contains { $0.type == .rejected && $0.reason?.contains("takes no commands") == true })
    player.stop()
    await server.stop()
  }
}
