/// What a state for which a predicate feedback's predicate is false does to
/// the effect that feedback is running.
///
/// The two libraries that a predicate feedback comes from disagree, so the
/// choice is written at every call site
/// (``Feedback/predicate(_:whenFalse:strategy:name:fileID:line:effects:)``
/// has no default for it):
/// ReactiveFeedback's talk defines the predicate feedback as "each state
/// for which the predicate holds starts the effect" (a false predicate
/// changes nothing, ``keepRunning``), while ReactiveFeedback 0.10 and Loop
/// cancel the running effect as soon as a state comes for which the
/// predicate is false (``cancelRunning``).
///
/// ```swift
/// // Hide the HUD 3 s after it shows; hiding it by hand cancels the timer.
/// Feedback<HUD, HUD.Event>.predicate(\.isVisible, whenFalse: .cancelRunning) { _ in
///   .after(.seconds(3), send: .hide)
/// }
/// ```
public enum WhenPredicateIsFalse: Sendable, Hashable {
  /// A state for which the predicate is false leaves the running effect
  /// alone: it runs to its end (ReactiveFeedback's `Feedback(predicate:)`,
  /// as its talk defines it).
  case keepRunning
  /// A state for which the predicate is false cancels the running effect
  /// (and, under ``ExecutionStrategy/queue``, the effects waiting behind
  /// it); their events that are not reduced yet never reach the reducer
  /// (G4's rule).
  case cancelRunning
}
