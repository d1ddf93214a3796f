import FeedbackLoop
import FeedbackLoopDeclarative

// The Feedbacks library's spellings, each a one-line forward to FeedbackLoop's
// own. `Feedback(on:...)` is a function here, not a type: the core already has
// a type named `Feedback`, and a function and a type of one name coexist
// (`Feedback(on: ...)` finds these functions, `Feedback.query(...)` the type).

extension ExecutionStrategy {
  /// The Feedbacks library's name for `ExecutionStrategy.cancelPrevious`:
  /// a new state for the feedback cancels its running effect.
  ///
  /// ```swift
  /// Feedback(on: LoadingState.self, strategy: .cancelOnNewState) { state in ... }
  /// // is
  /// Feedback.on(LoadingState.self, strategy: .cancelPrevious) { state in ... }
  /// ```
  public static var cancelOnNewState: ExecutionStrategy { .cancelPrevious }

  /// The Feedbacks library's name for `ExecutionStrategy.queue`: a new
  /// state for the feedback waits for the running effect to end; their
  /// events come in order.
  ///
  /// ```swift
  /// Feedback(on: VolumeState.self, strategy: .continueOnNewState) { state in ... }
  /// // is
  /// Feedback.on(VolumeState.self, strategy: .queue) { state in ... }
  /// ```
  public static var continueOnNewState: ExecutionStrategy { .queue }
}

/// The Feedbacks library's `Feedback(on:strategy:perform:)` for the states of type `type`:
/// spelled `Feedback.on(_:strategy:whenUnmatched:name:fileID:line:perform:)`
/// in FeedbackLoopDeclarative.
///
/// ```swift
/// Feedback(on: LoadingState.self, strategy: .cancelOnNewState) { state in ... }
/// // is
/// Feedback.on(LoadingState.self, strategy: .cancelPrevious) { state in ... }
/// ```
// swift-format-ignore: AlwaysUseLowerCamelCase
@_disfavoredOverload  // `AnyState.self` takes the wildcard's form, whose side effect gets the state
@inlinable
public func Feedback<State: Sendable, Event: Sendable, StateType: Sendable>(
  on type: StateType.Type,
  strategy: ExecutionStrategy = .cancelPrevious,
  whenUnmatched: WhenPredicateIsFalse = .keepRunning,
  name: String? = nil,
  fileID: StaticString = #fileID,
  line: UInt = #line,
  perform: @escaping @Sendable (StateType) -> Effect<Event>
) -> DeclaredFeedback<State, Event> {
  FeedbackLoop.Feedback<State, Event>.on(
    type, strategy: strategy, whenUnmatched: whenUnmatched, name: name, fileID: fileID, line: line, perform: perform)
}

/// The Feedbacks library's `Feedback(on:strategy:perform:)` for every state:
/// spelled `Feedback.on(_:strategy:whenUnmatched:name:fileID:line:perform:)`
/// in FeedbackLoopDeclarative.
///
/// ```swift
/// Feedback(on: AnyState.self) { state in ... }
/// // is
/// Feedback.on(AnyState.self) { state in ... }
/// ```
// swift-format-ignore: AlwaysUseLowerCamelCase
@inlinable
public func Feedback<State: Sendable, Event: Sendable>(
  on type: AnyState.Type,
  strategy: ExecutionStrategy = .cancelPrevious,
  whenUnmatched: WhenPredicateIsFalse = .keepRunning,
  name: String? = nil,
  fileID: StaticString = #fileID,
  line: UInt = #line,
  perform: @escaping @Sendable (State) -> Effect<Event>
) -> DeclaredFeedback<State, Event> {
  FeedbackLoop.Feedback<State, Event>.on(
    type, strategy: strategy, whenUnmatched: whenUnmatched, name: name, fileID: fileID, line: line, perform: perform)
}

/// The Feedbacks library's `Feedback(on:strategy:perform:)` for the states `pattern` matches:
/// spelled `Feedback.on(_:strategy:whenUnmatched:name:fileID:line:perform:)`
/// in FeedbackLoopDeclarative.
///
/// ```swift
/// Feedback(on: .case("loading", \Phase.loading)) { page in ... }
/// // is
/// Feedback.on(.case("loading", \Phase.loading)) { page in ... }
/// ```
// swift-format-ignore: AlwaysUseLowerCamelCase
@inlinable
public func Feedback<State: Sendable, Event: Sendable, Value: Sendable>(
  on pattern: Pattern<State, Value>,
  strategy: ExecutionStrategy = .cancelPrevious,
  whenUnmatched: WhenPredicateIsFalse = .keepRunning,
  name: String? = nil,
  fileID: StaticString = #fileID,
  line: UInt = #line,
  perform: @escaping @Sendable (Value) -> Effect<Event>
) -> DeclaredFeedback<State, Event> {
  FeedbackLoop.Feedback<State, Event>.on(
    pattern, strategy: strategy, whenUnmatched: whenUnmatched, name: name, fileID: fileID, line: line, perform: perform)
}

/// The Feedbacks library's `Feedback(on:strategy:run:)` for the states of type `type`, whose side effect is an operation:
/// spelled `Feedback.on(_:strategy:whenUnmatched:name:fileID:line:run:)`
/// in FeedbackLoopDeclarative.
///
/// ```swift
/// Feedback(on: LoadingState.self) { state, send in ... }
/// // is
/// Feedback.on(LoadingState.self) { state, send in ... }
/// ```
// swift-format-ignore: AlwaysUseLowerCamelCase
@_disfavoredOverload  // `AnyState.self` takes the wildcard's form, whose side effect gets the state
@inlinable
public func Feedback<State: Sendable, Event: Sendable, StateType: Sendable>(
  on type: StateType.Type,
  strategy: ExecutionStrategy = .cancelPrevious,
  whenUnmatched: WhenPredicateIsFalse = .keepRunning,
  name: String? = nil,
  fileID: StaticString = #fileID,
  line: UInt = #line,
  run: @escaping @Sendable (StateType, Send<Event>) async throws -> Void
) -> DeclaredFeedback<State, Event> {
  FeedbackLoop.Feedback<State, Event>.on(
    type, strategy: strategy, whenUnmatched: whenUnmatched, name: name, fileID: fileID, line: line, run: run)
}

/// The Feedbacks library's `Feedback(on:strategy:run:)` for every state, whose side effect is an operation:
/// spelled `Feedback.on(_:strategy:whenUnmatched:name:fileID:line:run:)`
/// in FeedbackLoopDeclarative.
///
/// ```swift
/// Feedback(on: AnyState.self) { state, send in ... }
/// // is
/// Feedback.on(AnyState.self) { state, send in ... }
/// ```
// swift-format-ignore: AlwaysUseLowerCamelCase
@inlinable
public func Feedback<State: Sendable, Event: Sendable>(
  on type: AnyState.Type,
  strategy: ExecutionStrategy = .cancelPrevious,
  whenUnmatched: WhenPredicateIsFalse = .keepRunning,
  name: String? = nil,
  fileID: StaticString = #fileID,
  line: UInt = #line,
  run: @escaping @Sendable (State, Send<Event>) async throws -> Void
) -> DeclaredFeedback<State, Event> {
  FeedbackLoop.Feedback<State, Event>.on(
    type, strategy: strategy, whenUnmatched: whenUnmatched, name: name, fileID: fileID, line: line, run: run)
}

/// The Feedbacks library's `Feedback(on:strategy:run:)` for the states `pattern` matches, whose side effect is an operation:
/// spelled `Feedback.on(_:strategy:whenUnmatched:name:fileID:line:run:)`
/// in FeedbackLoopDeclarative.
///
/// ```swift
/// Feedback(on: .case("loading", \Phase.loading)) { page, send in ... }
/// // is
/// Feedback.on(.case("loading", \Phase.loading)) { page, send in ... }
/// ```
// swift-format-ignore: AlwaysUseLowerCamelCase
@inlinable
public func Feedback<State: Sendable, Event: Sendable, Value: Sendable>(
  on pattern: Pattern<State, Value>,
  strategy: ExecutionStrategy = .cancelPrevious,
  whenUnmatched: WhenPredicateIsFalse = .keepRunning,
  name: String? = nil,
  fileID: StaticString = #fileID,
  line: UInt = #line,
  run: @escaping @Sendable (Value, Send<Event>) async throws -> Void
) -> DeclaredFeedback<State, Event> {
  FeedbackLoop.Feedback<State, Event>.on(
    pattern, strategy: strategy, whenUnmatched: whenUnmatched, name: name, fileID: fileID, line: line, run: run)
}
