import FeedbackLoop

/// A driver's event is written with the driver's name and its event type's
/// name, so that it decodes back into the type the driver's event filter
/// casts to: `{"driver":"screen","type":"App.Screen.Event","event":{…}}`.
///
/// Encoding needs the driver's event to be `Encodable`; decoding needs its
/// type to be known: a ``Wire`` made for a driver whose events are
/// `Decodable` makes it known, and so does ``registerDecodable(_:)`` (for a
/// tool that reads a timeline file without building the router).
///
/// ```swift
/// let data = try JSONEncoder().encode(CycleEvent.driver("screen", Screen.Event.key("+")))
/// let event = try JSONDecoder().decode(CycleEvent.self, from: data)
/// ```
extension DriverEvent: Codable {
  private enum CodingKeys: String, CodingKey {
    case driver, type, event
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(driver, forKey: .driver)
    try container.encode(DriverEventTypes.name(of: Swift.type(of: event)), forKey: .type)
    guard let encodable = event as? any Encodable else {
      throw EncodingError.invalidValue(
        event,
        EncodingError.Context(
          codingPath: container.codingPath + [CodingKeys.event],
          debugDescription:
            "the driver \(driver)'s event type \(Swift.type(of: event)) is not Encodable: make it Codable"))
    }
    try container.encode(encodable, forKey: .event)
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let driver = try container.decode(String.self, forKey: .driver)
    let typeName = try container.decode(String.self, forKey: .type)
    guard let decode = DriverEventTypes.decoder(named: typeName) else {
      throw DecodingError.dataCorruptedError(
        forKey: .type, in: container,
        debugDescription:
          "no Decodable driver event type is called \(typeName): make a Wire for its driver, or call DriverEvent.registerDecodable(_:), before decoding"
      )
    }
    self.init(driver: driver, event: try decode(try container.superDecoder(forKey: .event)))
  }

  /// Makes `type` known to the decoding of driver events, under its name.
  /// A ``Wire`` does it for its driver's events; call it to read a
  /// timeline file of an application whose router is not built.
  ///
  /// ```swift
  /// DriverEvent.registerDecodable(Screen.Event.self)
  /// let file = try TimelineFile<Reel<App.Frame>, CycleEvent>(contentsOf: url)
  /// ```
  public static func registerDecodable<Event: Decodable & Sendable>(_ type: Event.Type) {
    DriverEventTypes.registerType(type)
  }

  /// Registers `type` if it is `Decodable`: what a ``Wire`` calls for its
  /// driver's event type, once, when it is made.
  @usableFromInline
  static func registerIfDecodable<Event: Sendable>(_ type: Event.Type) {
    guard let decodable = type as? any (Decodable & Sendable).Type else { return }
    DriverEventTypes.register(decodable)
  }
}

/// The driver event types (and the reels a jump sets) that decode, by their fully qualified names
/// (`String(reflecting:)`): one table for the process, written when routers
/// are built, read when a timeline is decoded.
enum DriverEventTypes {
  // `Locked`, not a bare `Mutex`: ThreadSanitizer sees its hand-over (see `Locked`).
  private static let decoders = Locked<[String: @Sendable (any Decoder) throws -> any Sendable]>([:])

  static func name(of type: Any.Type) -> String { String(reflecting: type) }

  static func registerType<Event: Decodable & Sendable>(_ type: Event.Type) {
    let name = name(of: type)
    decoders.withLock { decoders in
      if decoders[name] == nil { decoders[name] = { decoder in try Event(from: decoder) } }
    }
  }

  static func register(_ type: any (Decodable & Sendable).Type) {
    func open<Event: Decodable & Sendable>(_ type: Event.Type) { registerType(type) }
    open(type)
  }

  static func decoder(named name: String) -> (@Sendable (any Decoder) throws -> any Sendable)? {
    decoders.withLock { $0[name] }
  }
}

/// A driver's event dumps as its initializer reads:
/// `DriverEvent(driver: "screen", event: …)`, without the router's wire number.
extension DriverEvent: CustomReflectable {
  public var customMirror: Mirror {
    Mirror(self, children: ["driver": driver, "event": event], displayStyle: .struct)
  }
}
