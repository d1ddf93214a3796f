import FeedbackLoopCycle
import FeedbackLoopCycleDrivers

/// A screen driver for a terminal: renders its model as a line of text and
/// reports the keys a person presses, as its own events.
///
/// It knows nothing of the application: its model is whatever it is given
/// to draw, its events whatever its keys mean. It renders on the loop's
/// thread, synchronously, as a ``Driver`` does; writing a line is short.
/// Its keys wait in a `DriverEvents` until a router takes them, so one
/// screen serves a second run after a router stops.
///
/// ```swift
/// let screen = TerminalScreen<String, Counter.Key> { print($0) }
/// screen.press(.increment)
/// ```
public final class TerminalScreen<Model: Sendable & Equatable, Event: Sendable>: Driver {
  private let draw: @Sendable (Model) -> Void
  /// The keys pressed, in order.
  public let events = DriverEvents<Event>()

  /// A screen that draws each model with `draw`.
  public init(draw: @escaping @Sendable (Model) -> Void) {
    self.draw = draw
  }

  public func render(_ model: Model) {
    draw(model)
  }

  /// A person pressed a key that means `event`.
  public func press(_ event: Event) {
    events.send(event)
  }

  /// The person left: the screen's events end.
  public func close() {
    events.finish()
  }
}
