extension Feedback {
  /// An edge-triggered predicate feedback (G5): the effect starts when
  /// `predicate` becomes true (or holds for the initial state), runs while
  /// it stays true, and is cancelled when it becomes false.
  ///
  /// ```swift
  /// // The RxFeedback article's player: seek past the intro once, when skipping starts.
  /// Feedback<SkipIntro.State, SkipIntro.Event>.onBecomingTrue({ $0 == .skipping }) { _ in
  ///   .task { await player.seek(to: introEnd); return .didSkipIntro }
  /// }
  /// ```
  @inlinable
  public static func onBecomingTrue(
    _ predicate: @escaping @Sendable (State) -> Bool,
    strategy: ExecutionStrategy = .cancelPrevious,
    name: String? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    effects: @escaping @Sendable (State) -> Effect<Event>
  ) -> Feedback {
    Feedback(name: name, kind: "onBecomingTrue", fileID: fileID, line: line) { id, core in
      EffectfulRuntime.risingEdge(
        id: id, core: core, strategy: strategy, query: { predicate($0) ? $0 : nil }, effects: effects)
    }
  }

  /// An edge-triggered query feedback (G5): the effect starts when `query`
  /// becomes non-`nil` after `nil` (or is non-`nil` for the initial state),
  /// and is cancelled when it becomes `nil`. Changes of a non-`nil` query
  /// restart nothing, so the query need not be `Equatable`.
  ///
  /// ```swift
  /// // The ReactiveFeedback talk's search: while a page is shown, wait for the list to near its bottom, once.
  /// Feedback<Search.State, Search.Event>.onBecomingNonNil(\.loadNextPage) { _ in
  ///   .run { send in
  ///     for await _ in nearBottom { send(.loadNextPage); return }
  ///   }
  /// }
  /// ```
  @inlinable
  public static func onBecomingNonNil<Query: Sendable>(
    _ query: @escaping @Sendable (State) -> Query?,
    strategy: ExecutionStrategy = .cancelPrevious,
    name: String? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    effects: @escaping @Sendable (Query) -> Effect<Event>
  ) -> Feedback {
    Feedback(name: name, kind: "onBecomingNonNil", fileID: fileID, line: line) { id, core in
      EffectfulRuntime.risingEdge(id: id, core: core, strategy: strategy, query: query, effects: effects)
    }
  }
}
