import FeedbackLoopDebugging
import Foundation

/// What an application sends the monitor, one JSON object a line over TCP.
///
/// - `{"type":"hello","secret":"…","system":"search","diagram":"…"}` first:
///   the monitor's per-run secret, the system's id, and its transition
///   diagram (Mermaid: `StateDiagram.mermaid`, or `StatechartDiagram.mermaid`
///   with its composite states as `state id { … }` blocks) when it is
///   declared with the DSL;
/// - `{"type":"activity","moment":3,"message":{…}}` for every activity, an
///   `InspectionMessage`; `moment` is the moment's number on `started`
///   and `reduced` messages;
/// - `{"type":"rejected","reason":"…"}` when a command could not be applied.
public struct AppMessage: Sendable, Hashable, Codable {
  /// The kind of message. It grows with the protocol: a `switch` over it
  /// ends with `default:`.
  public enum Kind: String, Sendable, Hashable, Codable {
    case hello, activity, rejected
  }

  public var type: Kind
  public var secret: String?
  public var system: String?
  public var diagram: String?
  public var moment: UInt64?
  public var message: InspectionMessage?
  public var reason: String?

  public init(
    type: Kind, secret: String? = nil, system: String? = nil, diagram: String? = nil, moment: UInt64? = nil,
    message: InspectionMessage? = nil, reason: String? = nil
  ) {
    self.type = type
    self.secret = secret
    self.system = system
    self.diagram = diagram
    self.moment = moment
    self.message = message
    self.reason = reason
  }
}

/// What the monitor asks an application to do, one JSON object a line.
///
/// - `{"type":"jump","state":{…}}`: set the state (time travel, or an edited state);
/// - `{"type":"send","event":{…}}`: send an event;
/// - `{"type":"playEvents","from":3}`: jump to moment 3, then send the recorded events from outside after it
///   (the effects, derived again, answer themselves);
/// - `{"type":"playStates","from":3}`: set each recorded state from moment 3 on;
/// - `{"type":"welcome"}` after a good hello, `{"type":"rejected","reason":"…"}` otherwise.
public struct AppCommand: Sendable, Hashable, Codable {
  /// The kind of command. It grows with the protocol: a `switch` over it
  /// ends with `default:`.
  public enum Kind: String, Sendable, Hashable, Codable {
    case jump, send, playEvents, playStates, welcome, rejected
  }

  public var type: Kind
  public var state: JSONValue?
  public var event: JSONValue?
  public var from: UInt64?
  public var reason: String?

  public init(
    type: Kind, state: JSONValue? = nil, event: JSONValue? = nil, from: UInt64? = nil, reason: String? = nil
  ) {
    self.type = type
    self.state = state
    self.event = event
    self.from = from
    self.reason = reason
  }
}

extension Encodable {
  /// One line of JSON, without its newline: keys sorted, slashes as they are.
  ///
  /// ```swift
  /// try AppCommand(type: .welcome).monitorLine()  // {"type":"welcome"}
  /// ```
  public func monitorLine() throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(self), as: UTF8.self)
  }
}

/// Decodes one line, or says why it cannot, in words the other end can be
/// sent back ("not JSON", "missing field secret").
///
/// ```swift
/// if case .failure(let error) = decodeMonitorLine(AppMessage.self, line) {
///   reply(AppCommand(type: .rejected, reason: error.reason))
/// }
/// ```
public func decodeMonitorLine<Value: Decodable>(_ type: Value.Type, _ line: String) -> Result<
  Value, MonitorProtocolError
> {
  do {
    return .success(try JSONDecoder().decode(type, from: Data(line.utf8)))
  } catch let error as DecodingError {
    switch error {
    case .dataCorrupted(let context) where context.codingPath.isEmpty: return .failure(.init(reason: "not JSON"))
    case .keyNotFound(let key, _): return .failure(.init(reason: "missing field \(key.stringValue)"))
    case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
      let field = context.codingPath.map(\.stringValue).joined(separator: ".")
      return .failure(.init(reason: "bad field \(field): \(context.debugDescription)"))
    @unknown default: return .failure(.init(reason: "\(error)"))
    }
  } catch {
    return .failure(.init(reason: "\(error)"))
  }
}

/// Why a message was rejected: what ``decodeMonitorLine(_:_:)`` fails with.
///
/// ```swift
/// decodeMonitorLine(AppCommand.self, "nope")  // .failure(MonitorProtocolError(reason: "not JSON"))
/// ```
public struct MonitorProtocolError: Error, Sendable, Hashable {
  public var reason: String
  public init(reason: String) { self.reason = reason }
}
