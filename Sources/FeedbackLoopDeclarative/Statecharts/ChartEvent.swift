/// The events a statechart's system reduces: the user's events, and the
/// expiry of a delayed transition (sent by the chart's own feedbacks).
///
/// ```swift
/// player.send(.event(.pause))
/// player.send(.pause)          // the same, through System.send(_:)
/// ```
public struct ChartEvent<Event: Sendable>: Sendable {
  @usableFromInline enum Kind: Sendable {
    case event(Event)
    case timeout(transition: Int, entry: UInt32)
    case travel(any Sendable)
  }
  @usableFromInline let kind: Kind

  @usableFromInline init(kind: Kind) { self.kind = kind }

  /// A user's event.
  @inlinable public static func event(_ event: Event) -> ChartEvent { ChartEvent(kind: .event(event)) }

  static func timeout(transition: Int, entry: UInt32) -> ChartEvent {
    ChartEvent(kind: .timeout(transition: transition, entry: entry))
  }

  /// The user's event, or `nil` for a delay's expiry or a jump.
  public var event: Event? {
    if case .event(let event) = kind { event } else { nil }
  }

  /// Sets the chart's state to `snapshot`: a jump of time travel, or an
  /// edited state, reduced like any event (the activities and delays of
  /// the states it enters start again).
  ///
  /// ```swift
  /// player.send(ChartEvent.travel(to: recorder.moments[2].state))
  /// ```
  public static func travel<Context: Sendable>(to snapshot: ChartSnapshot<Context>) -> ChartEvent {
    ChartEvent(kind: .travel(snapshot))
  }

  /// The event that sets the state to `state`, a ``ChartSnapshot`` of the
  /// chart's context; the chart's reducer stops with a message naming both
  /// types when it is not.
  public static func travel(toAnyState state: any Sendable) -> ChartEvent { ChartEvent(kind: .travel(state)) }

  /// Whether this event is a jump.
  public var isTravel: Bool {
    if case .travel = kind { true } else { false }
  }
}

extension ChartEvent: CustomStringConvertible {
  public var description: String {
    switch kind {
    case .event(let event): String(describing: event)
    case .timeout(let transition, _): "timeout(\(transition))"
    case .travel(let snapshot): "travel to \(snapshot)"
    }
  }
}

extension ChartEvent: Equatable where Event: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    switch (lhs.kind, rhs.kind) {
    case (.event(let left), .event(let right)): left == right
    case (.timeout(let left, let leftEntry), .timeout(let right, let rightEntry)):
      left == right && leftEntry == rightEntry
    case (.travel(let left), .travel(let right)):
      if let left = left as? any Equatable { left.isEqual(to: right) } else { "\(left)" == "\(right)" }
    default: false
    }
  }
}

extension Equatable {
  fileprivate func isEqual(to other: any Sendable) -> Bool {
    guard let other = other as? Self else { return false }
    return self == other
  }
}
