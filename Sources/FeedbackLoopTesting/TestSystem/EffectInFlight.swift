import FeedbackLoop

/// An effect that a feedback started and that has not ended yet, as a
/// ``TestSystem`` shows it: which feedback, for which query or key, started
/// when on the test clock.
///
/// ```swift
/// hud.send(.tap) { $0.isVisible = true; $0.interactions = 1 }
/// let timer = try #require(hud.effectsInFlight.first)
/// #expect(timer.feedback.name == "hide after the last interaction")
/// #expect(timer.trigger == "1")
/// #expect(timer.startedAt == TestClock.Instant(offset: .zero))
/// ```
public struct EffectInFlight: Sendable, Hashable, CustomStringConvertible {
  /// The effect's identity within its system.
  public let id: EffectID
  /// When it started, on the test clock (when it was queued, if it waits).
  public let startedAt: TestClock.Instant
  /// Whether it waits behind a running effect of its feedback
  /// (`ExecutionStrategy.queue`) rather than running.
  public let isQueued: Bool

  /// An effect in flight; the test system makes these.
  public init(id: EffectID, startedAt: TestClock.Instant, isQueued: Bool = false) {
    self.id = id
    self.startedAt = startedAt
    self.isQueued = isQueued
  }

  /// The feedback that started it: its position and name.
  public var feedback: FeedbackID { id.feedback }

  /// What started it: the query, request or key, as text, when the feedback
  /// has one.
  public var trigger: String? { id.trigger }

  public var description: String {
    isQueued
      ? "\(id), queued at \(TimeFormat.short(startedAt.offset))"
      : "\(id), started at \(TimeFormat.short(startedAt.offset))"
  }
}
