/// The user's code of one transition, as declared: its matcher, its guard
/// and its action, the event forms for a transition on an event, the plain
/// forms for a delay or a done event.
///
/// It is a class so that the reducer reaches it through an unmanaged
/// reference and calls its immutable (`let`) closures borrowed: reading a
/// closure out of an array copies it, and each copy retains and releases
/// its context, which was most of an event's cost. The chart's tables hold
/// each instance strongly for as long as the chart exists.
@usableFromInline
final class ChartTransitionCode<Context: Sendable, Event: Sendable>: Sendable {
  @usableFromInline let matches: (@Sendable (Event) -> Bool)?
  @usableFromInline let eventCondition: (@Sendable (Context, Event) -> Bool)?
  @usableFromInline let plainCondition: (@Sendable (Context) -> Bool)?
  @usableFromInline let eventAction: (@Sendable (inout Context, Event) -> Void)?
  @usableFromInline let plainAction: (@Sendable (inout Context) -> Void)?

  init(
    matches: (@Sendable (Event) -> Bool)? = nil,
    eventCondition: (@Sendable (Context, Event) -> Bool)? = nil,
    plainCondition: (@Sendable (Context) -> Bool)? = nil,
    eventAction: (@Sendable (inout Context, Event) -> Void)? = nil,
    plainAction: (@Sendable (inout Context) -> Void)? = nil
  ) {
    self.matches = matches
    self.eventCondition = eventCondition
    self.plainCondition = plainCondition
    self.eventAction = eventAction
    self.plainAction = plainAction
  }

  var hasCondition: Bool { eventCondition != nil || plainCondition != nil }
  var hasAction: Bool { eventAction != nil || plainAction != nil }

  /// Whether the transition may be taken, for a given event (`nil` for a
  /// delay's expiry or a done event).
  @inlinable @inline(__always)
  func isAllowed(_ context: Context, _ event: Event?) -> Bool {
    if let event {
      if let eventCondition { return eventCondition(context, event) }
    } else if let plainCondition {
      return plainCondition(context)
    }
    return true
  }

  @inlinable @inline(__always)
  func run(_ context: inout Context, _ event: Event?) {
    if let event {
      eventAction?(&context, event)
    } else {
      plainAction?(&context)
    }
  }
}

/// An entry or exit action, boxed for the same reason as
/// ``ChartTransitionCode``.
@usableFromInline
final class ChartAction<Context: Sendable>: Sendable {
  @usableFromInline let body: @Sendable (inout Context) -> Void

  init(_ body: @escaping @Sendable (inout Context) -> Void) { self.body = body }
}

/// An event's matcher, boxed for the same reason as ``ChartTransitionCode``.
@usableFromInline
final class ChartMatcher<Event: Sendable>: Sendable {
  @usableFromInline let matches: @Sendable (Event) -> Bool

  init(_ matches: @escaping @Sendable (Event) -> Bool) { self.matches = matches }
}
