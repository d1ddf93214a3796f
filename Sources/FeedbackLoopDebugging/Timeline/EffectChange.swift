import FeedbackLoop

/// What happened to one effect during a moment.
///
/// ```swift
/// moment.effects.filter { $0.kind == .started }.map(\.effect.feedback.name)
/// ```
public struct EffectChange: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The kinds of change, in the order an effect lives them.
  ///
  /// It grows: a later version may add a case. End a `switch` over it with
  /// `default:` or `@unknown default:`, so that a new case does not break your
  /// build.
  public enum Kind: String, Sendable, Hashable, Codable {
    case queued, started, cancelled, finished, failed
  }

  /// What happened.
  public var kind: Kind
  /// The effect, with the feedback that owns it.
  public var effect: EffectReference
  /// The error's description, for ``Kind/failed``.
  public var error: String?

  @inlinable public init(kind: Kind, effect: EffectReference, error: String? = nil) {
    self.kind = kind
    self.effect = effect
    self.error = error
  }

  public var description: String {
    error.map { "\(kind) \(effect): \($0)" } ?? "\(kind) \(effect)"
  }
}

/// An event that was accepted or sent but never reduced, and why.
public struct DiscardedEvent<Event: Sendable>: Sendable {
  /// The event.
  public var event: Event
  /// Why it was not reduced: `effectCancelled`, `systemStopped` or `bufferFull`.
  public var reason: String

  @inlinable public init(event: Event, reason: String) {
    self.event = event
    self.reason = reason
  }

  @inlinable init(event: Event, reason: DiscardReason) {
    if let id = reason.cancelledEffect {
      self.init(event: event, reason: "effectCancelled: \(EffectReference(id))")
    } else {
      // systemStopped, bufferFull, noSuchChild: why, and any later reason.
      self.init(event: event, reason: reason.description)
    }
  }
}

extension DiscardedEvent: Equatable where Event: Equatable {}
extension DiscardedEvent: Codable where Event: Codable {}
