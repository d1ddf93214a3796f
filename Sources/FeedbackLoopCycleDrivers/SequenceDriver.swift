import FeedbackLoopCycle

/// A driver over any `AsyncSequence`: its elements are the driver's events
/// (a socket's messages, a sensor's readings, notifications), and what it
/// renders goes to `render`, or nowhere.
///
/// A run of a router iterates the sequence once. Whether a second run
/// after a router stops sees events depends on the sequence: one that makes
/// a fresh iterator each time (a timer, ``DriverEvents``) serves it; an
/// `AsyncStream` is used up by the first run.
///
/// ```swift
/// let messages = SequenceDriver<Bool, _>(socket.messages) { isConnected in socket.keepAlive = isConnected }
/// Wire(App.socket, driver: messages, model: \.wantsConnection, events: App.socketEvents)
/// ```
public struct SequenceDriver<Model: Sendable, Events: AsyncSequence & Sendable>: Driver
where Events.Element: Sendable {
  public typealias Event = Events.Element

  /// The sequence whose elements are the driver's events.
  public let events: Events
  private let draw: @Sendable (Model) -> Void

  /// A driver whose events are `events`' elements, and which renders each
  /// model with `render` (by default, nothing).
  public init(_ events: Events, render: @escaping @Sendable (Model) -> Void = { _ in }) {
    self.events = events
    self.draw = render
  }

  /// Hands `model` to the render closure, on the loop's thread.
  public func render(_ model: Model) {
    draw(model)
  }
}
