import FeedbackLoop

// ReactiveFeedback's spellings, each a one-line forward to FeedbackLoop's
// own: code moved from ReactiveFeedback compiles as it was written, and
// reads the same as the new spelling to the loop (the same runtime, the same
// default name).
extension Feedback {
  /// ReactiveFeedback's `Feedback(lensing:effects:)`: the query feedback,
  /// spelled `Feedback.query(_:strategy:name:fileID:line:effects:)` in
  /// FeedbackLoop.
  ///
  /// ```swift
  /// Feedback<Search.State, Search.Event>(lensing: \.nextPageURL) { url in
  ///   .task { try await .success(store.search(url)) } catch: { .failure($0) }
  /// }
  /// // is
  /// Feedback<Search.State, Search.Event>.query(\.nextPageURL) { url in ... }
  /// ```
  @inlinable
  public init<Query: Equatable & Sendable>(
    lensing query: @escaping @Sendable (State) -> Query?,
    strategy: ExecutionStrategy = .cancelPrevious,
    name: String? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    effects: @escaping @Sendable (Query) -> Effect<Event>
  ) {
    self = .query(query, strategy: strategy, name: name, fileID: fileID, line: line, effects: effects)
  }

  /// ReactiveFeedback's `Feedback(skippingRepeated:effects:)`: the query
  /// feedback, spelled `Feedback.query(_:strategy:name:fileID:line:effects:)`
  /// in FeedbackLoop.
  ///
  /// ```swift
  /// Feedback<Movies.State, Movies.Event>(skippingRepeated: \.nextPage) { page in ... }
  /// // is
  /// Feedback<Movies.State, Movies.Event>.query(\.nextPage) { page in ... }
  /// ```
  @inlinable
  public init<Query: Equatable & Sendable>(
    skippingRepeated query: @escaping @Sendable (State) -> Query?,
    strategy: ExecutionStrategy = .cancelPrevious,
    name: String? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    effects: @escaping @Sendable (Query) -> Effect<Event>
  ) {
    self = .query(query, strategy: strategy, name: name, fileID: fileID, line: line, effects: effects)
  }

  /// ReactiveFeedback's `Feedback(predicate:effects:)`, as its talk defines
  /// it (a state for which the predicate is false leaves the running effect
  /// alone): `Feedback.predicate(_:whenFalse:strategy:name:fileID:line:effects:)`
  /// with `WhenPredicateIsFalse.keepRunning` in FeedbackLoop. ReactiveFeedback
  /// 0.10 cancels the effect instead: write the new spelling with
  /// `WhenPredicateIsFalse.cancelRunning` for that.
  ///
  /// ```swift
  /// Feedback<Int, Counter.Event>(predicate: { $0 < 10 }) { _ in .send(.increment) }
  /// // is
  /// Feedback<Int, Counter.Event>.predicate({ $0 < 10 }, whenFalse: .keepRunning) { _ in .send(.increment) }
  /// ```
  @inlinable
  public init(
    predicate: @escaping @Sendable (State) -> Bool,
    strategy: ExecutionStrategy = .cancelPrevious,
    name: String? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    effects: @escaping @Sendable (State) -> Effect<Event>
  ) {
    self = .predicate(
      predicate, whenFalse: .keepRunning, strategy: strategy, name: name, fileID: fileID, line: line, effects: effects)
  }

  /// ReactiveFeedback's `Feedback(deriving:effects:)`: spelled
  /// `Feedback.deriving(_:strategy:name:fileID:line:effects:)` in FeedbackLoop.
  ///
  /// ```swift
  /// Feedback<Player.State, Player.Event>(deriving: { states in states.map(\.position) }) { _ in .none }
  /// // is
  /// Feedback<Player.State, Player.Event>.deriving({ states in states.map(\.position) }) { _ in .none }
  /// ```
  public init<Derived: Sendable, Values: AsyncSequence & Sendable>(
    deriving transform: @escaping @Sendable (AsyncStream<State>) -> Values,
    strategy: ExecutionStrategy = .cancelPrevious,
    name: String? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    effects: @escaping @Sendable (Derived) -> Effect<Event>
  ) where Values.Element == Derived {
    self = .deriving(transform, strategy: strategy, name: name, fileID: fileID, line: line, effects: effects)
  }
}
