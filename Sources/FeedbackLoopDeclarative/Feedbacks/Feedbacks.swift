import FeedbackLoop

/// The feedbacks of a declared system: its side effects, inputs and timers.
///
/// List declared feedbacks (`Feedback.on(_:strategy:perform:)`), the core's
/// feedbacks (`.input(_:)`, `.query(_:)`, ...), and other
/// `Feedbacks`. Modifiers applied to the group apply to every declared
/// feedback in it, after the feedback's own.
///
/// ```swift
/// Feedbacks {
///   Feedback.on(LoadingState.self, strategy: .cancelPrevious) { state in ... }
///   Feedback.on(SelectedState.self, strategy: .queue) { state in ... }
///   Feedback.input(buttons)
/// }
/// .onEventEmitted { event in logger.debug("\(event)") }
/// ```
public struct Feedbacks<State: Sendable, Event: Sendable>: Sendable {
  /// The feedbacks, in the order they see each state.
  public internal(set) var feedbacks: [DeclaredFeedback<State, Event>]

  /// The feedbacks `content` lists.
  ///
  /// ```swift
  /// Feedbacks<Phase, Action> {
  ///   Feedback.on(.case("loading", \Phase.loading)) { page in ... }
  /// }
  /// ```
  public init(@FeedbacksBuilder<State, Event> _ content: () -> [DeclaredFeedback<State, Event>]) {
    feedbacks = content()
  }

  /// No feedback.
  public init() {
    feedbacks = []
  }

  /// The core feedbacks that run these.
  @inlinable
  func makeCoreFeedbacks() -> [FeedbackLoop.Feedback<State, Event>] {
    feedbacks.map { $0.makeCoreFeedback() }
  }
}

/// Collects the feedbacks of ``Feedbacks``: declared feedbacks, core
/// feedbacks and other groups, in order. `if` and `for` choose them when
/// the system is declared.
@resultBuilder
public enum FeedbacksBuilder<State: Sendable, Event: Sendable> {
  public static func buildExpression(_ feedback: DeclaredFeedback<State, Event>) -> [DeclaredFeedback<State, Event>] {
    [feedback]
  }
  public static func buildExpression(
    _ feedback: FeedbackLoop.Feedback<State, Event>
  ) -> [DeclaredFeedback<State, Event>] {
    [DeclaredFeedback(feedback)]
  }
  public static func buildExpression(_ group: Feedbacks<State, Event>) -> [DeclaredFeedback<State, Event>] {
    group.feedbacks
  }
  public static func buildExpression(
    _ feedbacks: [DeclaredFeedback<State, Event>]
  ) -> [DeclaredFeedback<State, Event>] {
    feedbacks
  }
  public static func buildBlock(_ parts: [DeclaredFeedback<State, Event>]...) -> [DeclaredFeedback<State, Event>] {
    parts.flatMap { $0 }
  }
  public static func buildOptional(_ part: [DeclaredFeedback<State, Event>]?) -> [DeclaredFeedback<State, Event>] {
    part ?? []
  }
  public static func buildEither(first part: [DeclaredFeedback<State, Event>]) -> [DeclaredFeedback<State, Event>] {
    part
  }
  public static func buildEither(second part: [DeclaredFeedback<State, Event>]) -> [DeclaredFeedback<State, Event>] {
    part
  }
  public static func buildArray(_ parts: [[DeclaredFeedback<State, Event>]]) -> [DeclaredFeedback<State, Event>] {
    parts.flatMap { $0 }
  }
}
