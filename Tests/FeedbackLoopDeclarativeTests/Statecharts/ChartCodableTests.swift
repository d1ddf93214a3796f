import FeedbackLoop
import FeedbackLoopDeclarative
import FeedbackLoopScenarios
import Foundation
import Testing

/// A statechart's state and events as JSON, a jump through the chart's
/// reducer, and a chart's state as a test's diff shows it.
@Suite(.runsLeftoverJobs) struct ChartCodableTests {
  struct Context: Codable, Equatable, Sendable {
    var plays = 0
  }

  enum Press: String, Codable, Equatable, Sendable {
    case load, play, pause, stop
  }

  static let chart = try! Statechart<Context, Press>("codable", initial: "idle") {
    ChartState("idle") { Transition(on: .load, to: "loaded") }
    ChartState("loaded", initial: "paused") {
      Transition(on: .stop, to: "idle")
      ChartState("paused") { Transition(on: .play, to: "playing") }
      ChartState("playing") {
        OnEntry { $0.plays += 1 }
        Transition(on: .pause, to: "paused")
      }
      HistoryState("resume")
    }
  }

  func played() -> ChartSnapshot<Context> {
    var state = Self.chart.initialState(context: Context())
    for press in [Press.load, .play] { Self.chart.reduce(&state, .event(press)) }
    return state
  }

  @Test("a chart's state is written with its active states by name, and read back equal, with no chart at hand")
  func snapshotRoundTrip() throws {
    let state = played()
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let json = String(decoding: try encoder.encode(state), as: UTF8.self)
    #expect(json.contains(#""active":["codable","loaded","playing"]"#))
    #expect(json.contains(#""context":{"plays":1}"#))
    let decoded = try JSONDecoder().decode(ChartSnapshot<Context>.self, from: Data(json.utf8))
    #expect(decoded == state)
    #expect(decoded.activeStates == state.activeStates)
    #expect(decoded.isActive("playing"))
  }

  @Test("a decoded state goes on in the chart: its transitions and history work from it")
  func decodedStateRuns() throws {
    var state = try JSONDecoder().decode(ChartSnapshot<Context>.self, from: JSONEncoder().encode(played()))
    Self.chart.reduce(&state, .event(.pause))
    #expect(state.activeLeaves == ["paused"])
    Self.chart.reduce(&state, .event(.play))
    #expect(state.activeLeaves == ["playing"] && state.context.plays == 2)
  }

  @Test("an edited state that names a state the chart does not have does not decode, and names it")
  func unknownStateName() throws {
    var json = String(decoding: try JSONEncoder().encode(played()), as: UTF8.self)
    json = json.replacingOccurrences(
      of: #""active":["codable","loaded","playing"]"#, with: #""active":["codable","flying"]"#)
    #expect {
      try JSONDecoder().decode(ChartSnapshot<Context>.self, from: Data(json.utf8))
    } throws: { error in
      "\(error)".contains("flying")
    }
  }

  @Test("a chart's events are written and read back: a user's event, a delay's expiry, a jump")
  func eventRoundTrip() throws {
    _ = Self.chart  // makes ChartSnapshot<Context> known to a jump's decoding
    let events: [ChartEvent<Press>] = [.event(.play), .travel(to: played())]
    for event in events {
      let data = try JSONEncoder().encode(event)
      #expect(try JSONDecoder().decode(ChartEvent<Press>.self, from: data) == event)
    }
    #expect(
      String(decoding: try JSONEncoder().encode(ChartEvent.event(Press.play)), as: UTF8.self) == #"{"event":"play"}"#)
    let timeout = try JSONDecoder().decode(
      ChartEvent<Press>.self, from: Data(#"{"timeout":{"transition":2,"entry":1}}"#.utf8))
    #expect(timeout.event == nil && !timeout.isTravel)
  }

  @Test("a jump sets the chart's state through its reducer, like any event")
  func travel() {
    let destination = played()
    var state = Self.chart.initialState(context: Context())
    Self.chart.reduce(&state, .travel(to: destination))
    #expect(state == destination)
    #expect(ChartEvent<Press>.travel(toAnyState: destination).isTravel)
    #expect(!ChartEvent<Press>.event(.play).isTravel)
  }

  @Test("a chart's event dumps as the case a test writes, not its storage")
  func eventDump() {
    var dumped = ""
    Swift.dump(ChartEvent.event(Press.pause), to: &dumped)
    #expect(!dumped.contains("kind"))
    #expect(dumped.contains("event: ") && dumped.contains("pause"))
  }

  @Test("a chart's state dumps as what it says: active states, finished, context")
  func dump() {
    var dumped = ""
    Swift.dump(played(), to: &dumped)
    #expect(!dumped.contains("configuration") && !dumped.contains("layout") && !dumped.contains("entries"))
    #expect(dumped.contains("activeStates") && dumped.contains("playing") && dumped.contains("plays: 1"))
  }

  @Test("a jump to the state of a chart of another context stops the chart with a message naming both types")
  func jumpToAnotherContextStops() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      var state = ChartCodableTests.chart.initialState(context: Context())
      ChartCodableTests.chart.reduce(
        &state, .travel(to: PlayerChart.chart.initialState(context: PlayerChart.Context())))
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("ChartSnapshot<"), "stderr: \(message)")
  }

  @Test("a state with an unknown kind of state, or an entry count per state missing, does not decode")
  func malformedSnapshots() throws {
    let json = String(decoding: try JSONEncoder().encode(played()), as: UTF8.self)
    for broken in [
      json.replacingOccurrences(of: #""kind":"atomic""#, with: #""kind":"quantum""#),
      json.replacingOccurrences(of: #""entries":["#, with: #""entries":[9,"#),
    ] {
      #expect(throws: DecodingError.self) {
        try JSONDecoder().decode(ChartSnapshot<Context>.self, from: Data(broken.utf8))
      }
    }
  }
}
