import FeedbackLoop

/// A statechart's event as JSON: `{"event":…}` for a user's event (the
/// user's own `Codable` form), `{"timeout":{"transition":2,"entry":1}}` for
/// a delay's expiry, `{"travel":{"type":"…ChartSnapshot<App.Player>","state":{…}}}`
/// for a jump (it decodes once a chart of that context, `Codable`, is made).
///
/// ```swift
/// let data = try JSONEncoder().encode(ChartEvent.event(Player.Event.pause))  // {"event":"pause"}
/// ```
extension ChartEvent: Codable where Event: Codable {
  private enum CodingKeys: String, CodingKey {
    case event, timeout, travel
  }

  private enum TravelKeys: String, CodingKey {
    case type, state
  }

  private struct Timeout: Codable {
    var transition: Int
    var entry: UInt32
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch kind {
    case .event(let event): try container.encode(event, forKey: .event)
    case .timeout(let transition, let entry):
      try container.encode(Timeout(transition: transition, entry: entry), forKey: .timeout)
    case .travel(let snapshot):
      var travel = container.nestedContainer(keyedBy: TravelKeys.self, forKey: .travel)
      try travel.encode(ChartSnapshotTypes.name(of: type(of: snapshot)), forKey: .type)
      guard let encodable = snapshot as? any Encodable else {
        throw EncodingError.invalidValue(
          snapshot,
          EncodingError.Context(
            codingPath: travel.codingPath + [TravelKeys.state],
            debugDescription: "a jump's \(type(of: snapshot)) is not Encodable: make the context Codable"))
      }
      try travel.encode(encodable, forKey: .state)
    }
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    if container.contains(.event) {
      self = .event(try container.decode(Event.self, forKey: .event))
    } else if container.contains(.travel) {
      let travel = try container.nestedContainer(keyedBy: TravelKeys.self, forKey: .travel)
      let typeName = try travel.decode(String.self, forKey: .type)
      guard let decode = ChartSnapshotTypes.decoder(named: typeName) else {
        throw DecodingError.dataCorruptedError(
          forKey: .type, in: travel,
          debugDescription: "no Decodable chart state is called \(typeName): make its chart (context Codable) first")
      }
      self = ChartEvent(kind: .travel(try decode(try travel.superDecoder(forKey: .state))))
    } else {
      let timeout = try container.decode(Timeout.self, forKey: .timeout)
      self = .timeout(transition: timeout.transition, entry: timeout.entry)
    }
  }
}

/// The chart state types that decode, by their fully qualified names
/// (`String(reflecting:)`): one table for the process, written when charts
/// are made, read when a jump is decoded (`ChartEvent` does not name its
/// chart's context).
enum ChartSnapshotTypes {
  // `Locked`, not a bare `Mutex`: ThreadSanitizer sees its hand-over (see `Locked`).
  private static let decoders = Locked<[String: @Sendable (any Decoder) throws -> any Sendable]>([:])

  static func name(of type: Any.Type) -> String { String(reflecting: type) }

  static func registerIfDecodable<State: Sendable>(_ type: State.Type) {
    guard let decodable = type as? any (Decodable & Sendable).Type else { return }
    func register<Decoded: Decodable & Sendable>(_ type: Decoded.Type) {
      let name = name(of: type)
      decoders.withLock { decoders in
        if decoders[name] == nil { decoders[name] = { decoder in try Decoded(from: decoder) } }
      }
    }
    register(decodable)
  }

  static func decoder(named name: String) -> (@Sendable (any Decoder) throws -> any Sendable)? {
    decoders.withLock { $0[name] }
  }
}

/// A chart's event dumps as the case a test writes (`.event(.pause)`,
/// `.travel(…)`, `.timeout(…)`), not as its storage.
extension ChartEvent: CustomReflectable {
  public var customMirror: Mirror {
    switch kind {
    case .event(let event): Mirror(self, children: ["event": event], displayStyle: .enum)
    case .timeout(let transition, let entry):
      Mirror(self, children: ["timeout": (transition: transition, entry: entry)], displayStyle: .enum)
    case .travel(let snapshot): Mirror(self, children: ["travel": snapshot], displayStyle: .enum)
    }
  }
}
