extension Feedback {
  /// A query feedback (G4), under its primary spelling: `query` is
  /// computed from each state; when it changes, the running effect is
  /// cancelled and `effects` starts a new one for the non-`nil` query; `nil`
  /// cancels. An equal query restarts nothing and costs one comparison.
  ///
  /// `lensing` is ReactiveFeedback's name; the same feedback is also spelled
  /// ``init(skippingRepeated:strategy:name:fileID:line:effects:)``
  /// (ReactiveFeedback's older name) and
  /// ``react(request:strategy:name:fileID:line:effects:)`` (RxFeedback's):
  /// those names are kept for users of the old libraries, and all three share
  /// one implementation. New code writes `lensing`.
  ///
  /// The events of a cancelled effect that were not reduced yet never reach
  /// the reducer, whether it sent them before or after the cancellation.
  ///
  /// ```swift
  /// // The ReactiveFeedback talk's search: load the page whose URL the state asks for.
  /// Feedback<Search.State, Search.Event>(lensing: \.nextPageURL) { url in
  ///   .task { try await .success(store.search(url)) } catch: { .failure($0) }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - query: the part of the state the effect depends on; `nil` for none.
  ///   - strategy: what a changed query does to running effects (G7).
  ///   - name: the name monitors show; by default `lensing@File.swift:line`.
  ///   - fileID: where the feedback is made, for its default name.
  ///   - line: where the feedback is made, for its default name.
  ///   - effects: the effect for a query.
  @inlinable
  public init<Query: Equatable & Sendable>(
    lensing query: @escaping @Sendable (State) -> Query?,
    strategy: ExecutionStrategy = .cancelPrevious,
    name: String? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    effects: @escaping @Sendable (Query) -> Effect<Event>
  ) {
    self.init(
      queryFeedbackNamed: "lensing", query: query, strategy: strategy, name: name, fileID: fileID, line: line,
      effects: effects)
  }

  /// The one implementation of the query feedback, which every spelling
  /// (`lensing`, `skippingRepeated`, `react(request:)`) forwards to; `kind`
  /// keeps the spelling's name in the feedback's default name. Inlinable,
  /// as the spellings are, so that the runtime is specialized in the
  /// caller's module.
  @inlinable
  init<Query: Equatable & Sendable>(
    queryFeedbackNamed kind: StaticString,
    query: @escaping @Sendable (State) -> Query?,
    strategy: ExecutionStrategy,
    name: String?,
    fileID: StaticString,
    line: UInt,
    effects: @escaping @Sendable (Query) -> Effect<Event>
  ) {
    self.init(name: name, kind: kind, fileID: fileID, line: line) { id, core in
      EffectfulRuntime.query(id: id, core: core, strategy: strategy, query: query, effects: effects)
    }
  }

  /// ReactiveFeedback's `skippingRepeated`: the query feedback
  /// ``init(lensing:strategy:name:fileID:line:effects:)``, which is the
  /// primary spelling, under a name kept for users of ReactiveFeedback. It
  /// forwards to the same implementation; only its default name differs.
  ///
  /// ```swift
  /// Feedback<Movies.State, Movies.Event>(skippingRepeated: \.nextPage) { page in
  ///   .task { try await .response(api.movies(page: page)) } catch: { .failed($0) }
  /// }
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
    self.init(
      queryFeedbackNamed: "skippingRepeated", query: query, strategy: strategy, name: name, fileID: fileID,
      line: line, effects: effects)
  }

  /// RxFeedback's `react(request:effects:)`: the query feedback
  /// ``init(lensing:strategy:name:fileID:line:effects:)``, which is the
  /// primary spelling, under a name kept for users of RxFeedback. It forwards
  /// to the same implementation; only its default name differs.
  ///
  /// ```swift
  /// // The RxFeedback article's player: count the skip-intro button down, one second per state.
  /// .react(request: \.secondsLeft) { secondsLeft in
  ///   .after(.seconds(1), send: .secondsLeftChanged(secondsLeft - 1))
  /// }
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
    Feedback(
      queryFeedbackNamed: "react(request:)", query: request, strategy: strategy, name: name, fileID: fileID,
      line: line, effects: effects)
  }

  /// A predicate feedback (level-triggered, G5): every state for which
  /// `predicate` holds triggers `effects`, which by default replaces the
  /// running effect. A state for which it does not hold changes nothing:
  /// the running effect goes on (the definition ReactiveFeedback's talk
  /// gives). To cancel it instead, as ReactiveFeedback 0.10 and Loop do,
  /// write ``init(predicate:whenFalse:strategy:name:fileID:line:effects:)``
  /// with ``WhenPredicateIsFalse/cancelRunning``.
  ///
  /// ```swift
  /// // Keep counting while below ten.
  /// Feedback<Int, Counter.Event>(predicate: { $0 < 10 }) { _ in .send(.increment) }
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
    self.init(name: name, kind: "predicate", fileID: fileID, line: line) { id, core in
      EffectfulRuntime.predicate(id: id, core: core, strategy: strategy, predicate: predicate, effects: effects)
    }
  }

  /// A predicate feedback (level-triggered, G5) that says what a state for
  /// which the predicate is false does to the running effect: every state
  /// for which `predicate` holds triggers `effects`, as in
  /// ``init(predicate:strategy:name:fileID:line:effects:)``, and a state for
  /// which it does not hold keeps the running effect (``WhenPredicateIsFalse/keepRunning``)
  /// or cancels it (``WhenPredicateIsFalse/cancelRunning``, the behaviour of
  /// ReactiveFeedback 0.10 and Loop).
  ///
  /// ```swift
  /// // Hide the HUD 3 s after it shows; hiding it by hand cancels the timer,
  /// // so no stale `.hide` arrives after a later tap shows it again.
  /// Feedback<HUD, HUD.Event>(predicate: \.isVisible, whenFalse: .cancelRunning) { _ in
  ///   .after(.seconds(3), send: .hide)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - predicate: the states that trigger the effect.
  ///   - whenFalse: what a state for which `predicate` is false does to the running effect.
  ///   - strategy: what a new triggering state does to running effects (G7).
  ///   - name: the name monitors show; by default `predicate@File.swift:line`.
  ///   - fileID: where the feedback is made, for its default name.
  ///   - line: where the feedback is made, for its default name.
  ///   - effects: the effect for a state for which `predicate` holds.
  @inlinable
  public init(
    predicate: @escaping @Sendable (State) -> Bool,
    whenFalse: WhenPredicateIsFalse,
    strategy: ExecutionStrategy = .cancelPrevious,
    name: String? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    effects: @escaping @Sendable (State) -> Effect<Event>
  ) {
    switch whenFalse {
    case .keepRunning:
      self.init(
        predicate: predicate, strategy: strategy, name: name, fileID: fileID, line: line, effects: effects)
    case .cancelRunning:
      self.init(name: name, kind: "predicate", fileID: fileID, line: line) { id, core in
        EffectfulRuntime.predicateCancellingWhenFalse(
          id: id, core: core, strategy: strategy, predicate: predicate, effects: effects)
      }
    }
  }

  /// An edge-triggered predicate feedback (G5): the effect starts when
  /// `predicate` becomes true (or holds for the initial state), runs while
  /// it stays true, and is cancelled when it becomes false.
  ///
  /// ```swift
  /// // The RxFeedback article's player: seek past the intro once, when skipping starts.
  /// Feedback<SkipIntro.State, SkipIntro.Event>(onBecomingTrue: { $0 == .skipping }) { _ in
  ///   .task { await player.seek(to: introEnd); return .didSkipIntro }
  /// }
  /// ```
  @inlinable
  public init(
    onBecomingTrue predicate: @escaping @Sendable (State) -> Bool,
    strategy: ExecutionStrategy = .cancelPrevious,
    name: String? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    effects: @escaping @Sendable (State) -> Effect<Event>
  ) {
    self.init(name: name, kind: "onBecomingTrue", fileID: fileID, line: line) { id, core in
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
  /// Feedback<Search.State, Search.Event>(onBecomingNonNil: \.loadNextPage) { _ in
  ///   .run { send in
  ///     for await _ in nearBottom { send(.loadNextPage); return }
  ///   }
  /// }
  /// ```
  @inlinable
  public init<Query: Sendable>(
    onBecomingNonNil query: @escaping @Sendable (State) -> Query?,
    strategy: ExecutionStrategy = .cancelPrevious,
    name: String? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    effects: @escaping @Sendable (Query) -> Effect<Event>
  ) {
    self.init(name: name, kind: "onBecomingNonNil", fileID: fileID, line: line) { id, core in
      EffectfulRuntime.risingEdge(id: id, core: core, strategy: strategy, query: query, effects: effects)
    }
  }
}
