/// The part of a running system that receives events, seen without its
/// state type, so that an ``Input`` and an effect's ``Send`` can hold it.
class EventSink<Event: Sendable>: @unchecked Sendable {
  // Sendable: this class has no stored state; subclasses prove their own.

  /// Accepts `event` from the effect `token` names (or from outside).
  func receive(_ event: Event, from token: EffectToken) {
    preconditionFailure("EventSink.receive(_:from:) must be overridden")
  }

  /// Accepts `event` from a caller that knows whether it is isolated to the
  /// main actor (a main-actor system reduces at once for such a caller).
  func receive(_ event: Event, from token: EffectToken, callerIsMainActor: Bool) {
    preconditionFailure("EventSink.receive(_:from:callerIsMainActor:) must be overridden")
  }
}
