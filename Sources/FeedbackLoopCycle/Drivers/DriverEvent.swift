/// One event of one driver, on its way to that driver's event filter.
///
/// The router's events carry the events of drivers of different types; this
/// box keeps the driver's name and its event. Two are equal when they come
/// from the driver of the same name and their events are equal (events that
/// are not `Equatable` compare by their description).
///
/// ```swift
/// app.send(.driver(Counter.screen, .key("+")))   // a DriverEvent of "screen"
/// ```
public struct DriverEvent: Sendable, Equatable, CustomStringConvertible {
  /// The name of the driver, as its ``Wire`` gives it.
  public let driver: String
  /// The driver's event.
  public let event: any Sendable
  /// The position of the wire in its router, when the router made the event;
  /// an event made by hand is found by name.
  @usableFromInline let wire: Int?

  /// A driver's event, as a test or an outside source sends it.
  public init(driver: String, event: any Sendable) {
    self.init(driver: driver, event: event, wire: nil)
  }

  @usableFromInline
  init(driver: String, event: any Sendable, wire: Int?) {
    self.driver = driver
    self.event = event
    self.wire = wire
  }

  public static func == (lhs: DriverEvent, rhs: DriverEvent) -> Bool {
    lhs.driver == rhs.driver && payloads(lhs.event, rhs.event)
  }

  /// Whether two payloads are equal: by `==` when they are `Equatable`,
  /// by description otherwise.
  static func payloads(_ lhs: any Sendable, _ rhs: any Sendable) -> Bool {
    if let equatable = lhs as? any Equatable {
      return equatable.isEqual(to: rhs)
    }
    return String(describing: lhs) == String(describing: rhs)
  }

  public var description: String { "\(driver): \(event)" }
}

extension Equatable {
  fileprivate func isEqual(to other: any Sendable) -> Bool {
    guard let other = other as? Self else { return false }
    return self == other
  }
}
