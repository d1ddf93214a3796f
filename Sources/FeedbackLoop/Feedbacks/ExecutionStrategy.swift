/// What a feedback does with its running effects when a new trigger arrives
/// (G7).
///
/// A trigger is whatever starts an effect: a new query, a state that
/// satisfies a predicate, a derived value, an event.
///
/// | strategy | a new trigger |
/// | --- | --- |
/// | ``cancelPrevious`` (default) | cancels the running effect, then starts the new one |
/// | ``queue`` | waits until the running effects end, then starts; events come in order |
/// | ``merge`` | starts at once, beside the running ones |
///
/// These are the only names: the Feedbacks library's `.cancelOnNewState`
/// and `.continueOnNewState` are `.cancelPrevious` and `.queue`, and the
/// `FeedbackLoopCompatibility` product keeps them for code moved from it.
///
/// Whatever the strategy, a query that becomes `nil` and the end of the
/// system cancel every effect of the feedback, queued ones included.
///
/// ```swift
/// Feedback.query(\.pendingUpload, strategy: .queue) { upload in
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
