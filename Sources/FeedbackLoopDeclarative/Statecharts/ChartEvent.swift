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
  }
  @usableFromInline let kind: Kind

  @usableFromInline init(kind: Kind) { self.kind = kind }

  /// A user's event.
  @inlinable public static func event(_ event: Event) -> ChartEvent { ChartEvent(kind: .event(event)) }

  static func timeout(transition: Int, entry: UInt32) -> ChartEvent {
    ChartEvent(kind: .timeout(transition: transition, entry: entry))
  }

  /// The user's event, or `nil` for a delay's expiry.
  public var event: Event? {
    if case .event(let event) = kind { event } else { nil }
  }
}

extension ChartEvent: CustomStringConvertible {
  public var description: String {
    switch kind {
    case .event(let event): String(describing: event)
    case .timeout(let transition, _): "timeout(\(transition))"
    }
  }
}

extension ChartEvent: Equatable where Event: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    switch (lhs.kind, rhs.kind) {
    case (.event(let left), .event(let right)): left == right
    case (.timeout(let left, let leftEntry), .timeout(let right, let rightEntry)):
      left == right && leftEntry == rightEntry
    default: false
    }
  }
}
