/// What a feedback does with its running effects when a new trigger arrives
/// (G7).
///
/// A trigger is whatever starts an effect: a new query, a state that
/// satisfies a predicate, a derived value, an event.
///
/// | strategy | a new trigger | Feedbacks' name |
/// | --- | --- | --- |
/// | ``cancelPrevious`` (default) | cancels the running effect, then starts the new one | `.cancelOnNewState` |
/// | ``queue`` | waits until the running effects end, then starts; events come in order | `.continueOnNewState` |
/// | ``merge`` | starts at once, beside the running ones | — |
///
/// Whatever the strategy, a query that becomes `nil` and the end of the
/// system cancel every effect of the feedback, queued ones included.
///
/// ```swift
/// Feedback(lensing: \.pendingUpload, strategy: .queue) { upload in
///   .task { try await .uploaded(server.send(upload)) }
/// }
/// ```
public enum ExecutionStrategy: Sendable, Hashable {
  /// Cancel the running effect and start the new one: the latest trigger wins.
  case cancelPrevious
  /// Start the new effect when the running ones have ended; their events
  /// reach the reducer one effect after another.
  case queue
  /// Run the new effect beside the running ones.
  case merge
}
