import FeedbackLoop
import Foundation

/// The documented JSON form of one ``Inspection``: one message per activity,
/// one line each in a stream.
///
/// Every message has `version` (1), `system`, `sequence` and `kind`, and
/// `parent` and `time` (seconds, a number) when known. The other fields
/// depend on `kind`:
///
/// | kind             | fields                                            |
/// |------------------|---------------------------------------------------|
/// | `started`        | `state`                                           |
/// | `reduced`        | `event`, `source`, `state` (the state it produced) |
/// | `effectQueued`, `effectStarted`, `effectCancelled`, `effectFinished` | `effect` |
/// | `effectFailed`   | `effect`, `error`                                 |
/// | `eventDiscarded` | `event`, `reason`                                 |
/// | `stopped`        | none                                              |
///
/// `source` is `{"external":{}}`, `{"feedback":{"_0":F}}` or
/// `{"effect":{"_0":E}}`; a feedback `F` is `{"index":0,"name":"…"}` and an
/// effect `E` is `{"feedback":F,"number":1,"trigger":"…"}`. `state` and
/// `event` are what the ``InspectionSerializer`` made of them.
///
/// ```json
/// {"version":1,"system":"search","sequence":3,"time":0.3,"kind":"reduced",
///  "event":{"loadNextPage":{}},"source":{"external":{}},"state":{…}}
/// ```
public struct InspectionMessage: Sendable, Hashable, Codable {
  /// The kinds of message, one per `SystemActivity`.
  ///
  /// It grows: a later version may add a case. End a `switch` over it with
  /// `default:` or `@unknown default:`, so that a new case does not break your
  /// build.
  public enum Kind: String, Sendable, Hashable, Codable {
    case started, reduced, effectQueued, effectStarted, effectCancelled, effectFinished, effectFailed
    case eventDiscarded, stopped, unknown
  }

  /// The format's version: 1.
  public var version: Int = 1
  public var system: String
  public var parent: String?
  public var sequence: UInt64
  /// Seconds on the stream's clock since it started.
  public var time: Double?
  public var kind: Kind
  public var event: JSONValue?
  public var source: MomentSource?
  public var state: JSONValue?
  public var effect: EffectReference?
  public var error: String?
  public var reason: String?

  public init(
    system: String, parent: String? = nil, sequence: UInt64, time: Double? = nil, kind: Kind,
    event: JSONValue? = nil, source: MomentSource? = nil, state: JSONValue? = nil,
    effect: EffectReference? = nil, error: String? = nil, reason: String? = nil
  ) {
    self.system = system
    self.parent = parent
    self.sequence = sequence
    self.time = time
    self.kind = kind
    self.event = event
    self.source = source
    self.state = state
    self.effect = effect
    self.error = error
    self.reason = reason
  }

  /// The message for `inspection`, showing its state and event with `serializer`.
  public init<State, Event>(
    _ inspection: Inspection<State, Event>, serializer: InspectionSerializer<State, Event>
  ) throws {
    let time = inspection.time.map { Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18 }
    self.init(
      system: inspection.system, parent: inspection.parent, sequence: inspection.sequence, time: time, kind: .unknown)
    switch inspection.activity {
    case .started(let initial):
      kind = .started
      state = try serializer.state(initial)
    case .reduced(let event, _, let to, let source):
      kind = .reduced
      self.event = try serializer.event(event)
      self.source = MomentSource(source)
      state = try serializer.state(to)
    case .effectQueued(let id): (kind, effect) = (.effectQueued, EffectReference(id))
    case .effectStarted(let id): (kind, effect) = (.effectStarted, EffectReference(id))
    case .effectCancelled(let id): (kind, effect) = (.effectCancelled, EffectReference(id))
    case .effectFinished(let id): (kind, effect) = (.effectFinished, EffectReference(id))
    case .effectFailed(let id, let failure):
      let error = inspection.errorDescription ?? String(describing: failure)
      (kind, effect, self.error) = (.effectFailed, EffectReference(id), error)
    case .eventDiscarded(let event, let reason):
      kind = .eventDiscarded
      self.event = try serializer.event(event)
      self.reason = DiscardedEvent(event: (), reason: reason).reason
    case .stopped: kind = .stopped
    @unknown default: kind = .unknown
    }
  }

  /// The message as one line of JSON (keys sorted, no newline inside).
  public func jsonLine() throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(self), as: UTF8.self)
  }
}
