import FeedbackLoop

/// Who sent the event of a moment, in a form that outlives the process
/// (the core's `EventSource` holds identifiers of a running system).
///
/// ```swift
/// MomentSource(EventSource.external)  // .external
/// ```
///
/// It grows: a later version may add a case. End a `switch` over it with
/// `default:` or `@unknown default:`, so that a new case does not break your
/// build.
public enum MomentSource: Sendable, Hashable, Codable, CustomStringConvertible {
  /// `System.send(_:isolation:)` or an `Input`.
  case external
  /// A feedback's own task (an input sequence, the general form).
  case feedback(FeedbackReference)
  /// An effect of a feedback.
  case effect(EffectReference)

  /// The source the core reported.
  public init(_ source: EventSource) {
    switch source {
    case .external: self = .external
    case .feedback(let id): self = .feedback(FeedbackReference(id))
    case .effect(let id): self = .effect(EffectReference(id))
    }
  }

  public var description: String {
    switch self {
    case .external: "external"
    case .feedback(let feedback): "\(feedback)"
    case .effect(let effect): "\(effect)"
    }
  }
}

/// A feedback of a recorded system: its position and its name.
public struct FeedbackReference: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The feedback's position in its system's list.
  public var index: Int
  /// The feedback's readable name (`FeedbackID.name`).
  public var name: String

  @inlinable public init(index: Int, name: String) {
    self.index = index
    self.name = name
  }

  @inlinable public init(_ id: FeedbackID) { self.init(index: id.index, name: id.name) }

  public var description: String { "#\(index) \(name)" }
}

/// An effect of a recorded system: the feedback that owns it, its number
/// within that feedback, and what started it.
public struct EffectReference: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The feedback that owns the effect.
  public var feedback: FeedbackReference
  /// The effect's number within its feedback, from 1.
  public var number: UInt64
  /// The query, request or key that started it, as text, when known.
  public var trigger: String?

  @inlinable public init(feedback: FeedbackReference, number: UInt64, trigger: String? = nil) {
    self.feedback = feedback
    self.number = number
    self.trigger = trigger
  }

  @inlinable public init(_ id: EffectID) {
    self.init(feedback: FeedbackReference(id.feedback), number: id.number, trigger: id.trigger)
  }

  public var description: String {
    trigger.map { "\(feedback) effect \(number) for \($0)" } ?? "\(feedback) effect \(number)"
  }
}
