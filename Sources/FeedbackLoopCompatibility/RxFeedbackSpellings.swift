import FeedbackLoop
import Logging

// RxFeedback's spellings, each a one-line forward to FeedbackLoop's own.
extension Feedback {
  /// RxFeedback's `react(request:effects:)`: the query feedback, spelled
  /// `Feedback.query(_:strategy:name:fileID:line:effects:)` in FeedbackLoop.
  ///
  /// ```swift
  /// .react(request: \.secondsLeft) { secondsLeft in .after(.seconds(1), send: .tick) }
  /// // is
  /// .query(\.secondsLeft) { secondsLeft in .after(.seconds(1), send: .tick) }
  /// ```
  @inlinable
  public static func react<Request: Equatable & Sendable>(
    request: @escaping @Sendable (State) -> Request?,
    strategy: ExecutionStrategy = .cancelPrevious,
    name: String? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    effects: @escaping @Sendable (Request) -> Effect<Event>
  ) -> Feedback {
    .query(request, strategy: strategy, name: name, fileID: fileID, line: line, effects: effects)
  }

  /// RxFeedback's `react(requests:effects:)` over a `Set`: the keyed
  /// feedback, spelled
  /// `Feedback.requests(_:name:fileID:line:effects:)` over a `Set`
  /// in FeedbackLoop.
  ///
  /// ```swift
  /// .react(requests: \.queued) { file in .task { .downloaded(file, try await client.fetch(file)) } }
  /// // is
  /// .requests(\.queued) { file in .task { .downloaded(file, try await client.fetch(file)) } }
  /// ```
  @inlinable
  public static func react<Request: Hashable & Sendable>(
    requests: @escaping @Sendable (State) -> Set<Request>,
    name: String? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    effects: @escaping @Sendable (Request) -> Effect<Event>
  ) -> Feedback {
    .requests(requests, name: name, fileID: fileID, line: line, effects: effects)
  }

  /// RxFeedback's `react(requests:effects:)` by id, over a `Dictionary`:
  /// the keyed feedback, spelled
  /// `Feedback.requests(_:name:fileID:line:effects:)` over a `Dictionary`
  /// in FeedbackLoop.
  ///
  /// ```swift
  /// .react(requests: \.priorityByID) { id, priority, updates in ... }
  /// // is
  /// .requests(\.priorityByID) { id, priority, updates in ... }
  /// ```
  @inlinable
  public static func react<ID: Hashable & Sendable, Value: Equatable & Sendable>(
    requests: @escaping @Sendable (State) -> [ID: Value],
    name: String? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    effects: @escaping @Sendable (_ id: ID, _ initial: Value, _ updates: AsyncStream<Value>) -> Effect<Event>
  ) -> Feedback {
    .requests(requests, name: name, fileID: fileID, line: line, effects: effects)
  }
}

/// The RxFeedback article's logging higher-order reducer: wraps `reduce` so that every
/// event and the state change it causes are logged through swift-log.
///
/// FeedbackLoop spells this `monitor: .logging(to:level:)` on the system
/// (`SystemMonitor.logging(to:level:)`), which logs the same
/// lines and the effects too; this wrapper is for reducers composed by hand.
///
/// ```swift
/// let reduce = logging(HUD.reduce, to: Logger(label: "hud"))
/// ```
public func logging<State, Event>(
  _ reduce: @escaping @Sendable (inout State, Event) -> Void,
  to logger: Logger,
  level: Logger.Level = .debug
) -> @Sendable (inout State, Event) -> Void {
  return { state, event in
    let before = state
    reduce(&state, event)
    logger.log(level: level, "event \(event): \(before) -> \(state)")
  }
}

/// The logging higher-order reducer for a reducer that returns the new
/// state.
///
/// ```swift
/// let reduce = logging(reduceReturning: Volume.reduce, to: Logger(label: "volume"))
/// ```
public func logging<State, Event>(
  reduceReturning reduce: @escaping @Sendable (State, Event) -> State,
  to logger: Logger,
  level: Logger.Level = .debug
) -> @Sendable (State, Event) -> State {
  return { state, event in
    let next = reduce(state, event)
    logger.log(level: level, "event \(event): \(state) -> \(next)")
    return next
  }
}
