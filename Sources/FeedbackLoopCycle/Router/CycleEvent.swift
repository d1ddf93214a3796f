/// What a Cycle application's system reduces: a driver's event, an
/// animation's tick, or the end of a driver's events.
///
/// ```swift
/// counter.send(.driver(Counter.screen, .key("+")))   // Counter.screen: a DriverKey<Screen.Event>
/// ```
///
/// It grows: a later version may add a case. End a `switch` over it with
/// `default:` or `@unknown default:`, so that a new case does not break your
/// build.
public enum CycleEvent: Sendable, CustomStringConvertible {
  /// An event of a driver, for its event filter.
  case driver(DriverEvent)
  /// The animation clock ticked: the next queued frame becomes the current one.
  case tick
  /// A driver's event sequence ended. The other drivers keep running.
  case driverEnded(String)
  /// A driver's event sequence threw. The other drivers keep running.
  case driverFailed(String, message: String)
  /// Sets the reel to `reel`, a `Reel` of the router's frame: a jump of
  /// time travel, or an edited state, reduced like any event. A reel of
  /// another frame type stops the router with a message naming both.
  ///
  /// ```swift
  /// app.send(.travel(to: Reel(queue: [3], previous: [2])))
  /// ```
  case travel(to: any Sendable)

  /// An event of the driver named `name`, untyped: for a tool that knows
  /// the driver by name only (a decoder, a monitor, a fixture). An
  /// application sends through its ``DriverKey``s, whose event types the
  /// compiler checks (`.driver(App.clock, .tick)`); here a wrong name or
  /// type stops the router when the event is reduced.
  ///
  /// ```swift
  /// let event = CycleEvent.driver("clock", Clock.Event.tick)
  /// ```
  public static func driver(_ name: String, _ event: any Sendable) -> CycleEvent {
    .driver(DriverEvent(driver: name, event: event))
  }

  public var description: String {
    switch self {
    case .driver(let event): "\(event)"
    case .tick: "tick"
    case .driverEnded(let name): "\(name) ended"
    case .driverFailed(let name, let message): "\(name) failed: \(message)"
    case .travel(let reel): "travel to \(reel)"
    }
  }

  /// Whether this event is a jump (``travel(to:)``).
  public var isTravel: Bool {
    if case .travel = self { true } else { false }
  }

  /// The event that sets the reel to `state`, a `Reel` of the router's frame.
  public static func travel(toAnyState state: any Sendable) -> CycleEvent { .travel(to: state) }
}

extension CycleEvent: Equatable {
  /// Driver events compare as ``DriverEvent``s do; two jumps compare their
  /// reels (by description when they are not `Equatable`).
  public static func == (lhs: CycleEvent, rhs: CycleEvent) -> Bool {
    switch (lhs, rhs) {
    case (.driver(let left), .driver(let right)): left == right
    case (.tick, .tick): true
    case (.driverEnded(let left), .driverEnded(let right)): left == right
    case (.driverFailed(let left, let leftMessage), .driverFailed(let right, let rightMessage)):
      left == right && leftMessage == rightMessage
    case (.travel(let left), .travel(let right)): DriverEvent.payloads(left, right)
    default: false
    }
  }
}
