import FeedbackLoopDebugging
import Testing

/// The debugger's enums that are closed for good (CONTRIBUTING.md, "Public
/// enums"): switched over without a `default`, so that a new case fails
/// this file's build.
@Suite("Closed enums of the debugger")
struct ClosedEnumsTests {
  @Test("PlaybackEvents is closed: the outside's events, or all of them")
  func playbackEventsIsClosed() {
    func name(_ events: PlaybackEvents) -> String {
      switch events {
      case .external: "external"
      case .all: "all"
      }
    }
    #expect([PlaybackEvents.external, .all].map(name) == ["external", "all"])
  }

  @Test("JSONValue is closed: JSON's six kinds of value")
  func jsonValueIsClosed() {
    func name(_ value: JSONValue) -> String {
      switch value {
      case .null: "null"
      case .bool: "bool"
      case .number: "number"
      case .string: "string"
      case .array: "array"
      case .object: "object"
      }
    }
    let values: [JSONValue] = [.null, .bool(true), .number(1), .string("s"), .array([]), .object([:])]
    #expect(values.map(name) == ["null", "bool", "number", "string", "array", "object"])
  }

  @Test("FixtureTestWriter.ReducerStyle is closed: the two forms of a reducer")
  func reducerStyleIsClosed() {
    func name(_ style: FixtureTestWriter.ReducerStyle) -> String {
      switch style {
      case .returning: "returning"
      case .inPlace: "inPlace"
      }
    }
    #expect([FixtureTestWriter.ReducerStyle.returning, .inPlace].map(name) == ["returning", "inPlace"])
  }
}
