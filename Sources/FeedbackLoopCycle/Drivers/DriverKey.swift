/// A driver's name together with the type of its events: what an
/// application declares once per driver, wires the driver with, and sends
/// the driver's events through.
///
/// Sending through the key checks both halves at compile time: a key is a
/// constant of the application's (a misspelt one does not compile), and
/// `CycleEvent.driver(_:_:)` with a key takes only the
/// key's event type.
///
/// ```swift
/// enum Counter {
///   static let screen = DriverKey<Screen.Event>("screen")
/// }
/// Router(seed: 0) { _ in
///   [Wire(Counter.screen, driver: screen, model: { "\($0)" }, events: Counter.screenEvents)]
/// }
/// app.send(.driver(Counter.screen, .key("+")))   // .driver(Counter.screen, 3) does not compile
/// ```
public struct DriverKey<Event: Sendable>: Sendable, Hashable, CustomStringConvertible {
  /// The driver's name, unique in its router: what its events and its end
  /// are reported and recorded under.
  public let name: String

  /// The key of the driver called `name`, whose events are `Event`s.
  ///
  /// ```swift
  /// static let clock = DriverKey<Ticker.Event>("clock")
  /// ```
  public init(_ name: String, events: Event.Type = Event.self) {
    self.name = name
  }

  /// The router's event for `event`, an event of this driver.
  ///
  /// ```swift
  /// app.send(Counter.screen.event(.key("+")))
  /// ```
  @inlinable
  public func event(_ event: Event) -> CycleEvent {
    .driver(DriverEvent(driver: name, event: event))
  }

  public var description: String { "\(name) (\(Event.self))" }
}

extension CycleEvent {
  /// An event of the driver `key` names, checked at compile time to be of
  /// that driver's event type.
  ///
  /// ```swift
  /// app.send(.driver(Counter.screen, .key("+")))
  /// app.receive(.driver(Counter.clock, .tick)) { $0 = Reel(queue: [1], previous: [0]) }
  /// ```
  @inlinable
  public static func driver<Event>(_ key: DriverKey<Event>, _ event: Event) -> CycleEvent {
    key.event(event)
  }
}
