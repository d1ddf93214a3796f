import FeedbackLoop

extension ExecutionStrategy {
  /// The Feedbacks library's name for `ExecutionStrategy.cancelPrevious`: a new state
  /// for the feedback cancels its running effect.
  ///
  /// ```swift
  /// Feedback(on: LoadingState.self, strategy: .cancelOnNewState) { state in ... }
  /// ```
  public static var cancelOnNewState: ExecutionStrategy { .cancelPrevious }

  /// The Feedbacks library's name for `ExecutionStrategy.queue`: a new state for the
  /// feedback waits for the running effect to end; their events come in order.
  ///
  /// ```swift
  /// Feedback(on: VolumeState.self, strategy: .continueOnNewState) { state in ... }
  /// ```
  public static var continueOnNewState: ExecutionStrategy { .queue }
}
