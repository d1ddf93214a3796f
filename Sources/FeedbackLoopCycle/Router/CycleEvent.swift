/// What a Cycle application's system reduces: a driver's event, an
/// animation's tick, or the end of a driver's events.
///
/// ```swift
/// counter.send(.driver("screen", Screen.Event.key("+")))
/// ```
///
/// It grows: a later version may add a case. End a `switch` over it with
/// `default:` or `@unknown default:`, so that a new case does not break your
/// build.
public enum CycleEvent: Sendable, Equatable, CustomStringConvertible {
  /// An event of a driver, for its event filter.
  case driver(DriverEvent)
  /// The animation clock ticked: the next queued frame becomes the current one.
  case tick
  /// A driver's event sequence ended. The other drivers keep running.
  case driverEnded(String)
  /// A driver's event sequence threw. The other drivers keep running.
  case driverFailed(String, message: String)

  /// An event of the driver named `name`.
  ///
  /// ```swift
  /// router.send(.driver("clock", Clock.Event.tick))
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
    }
  }
}
