extension Feedback {
  /// A query feedback (G4): `query` is computed from each state; when it
  /// changes, the running effect is cancelled and `effects` starts a new
  /// one for the non-`nil` query; `nil` means "no effect" and cancels the
  /// running one. An equal query restarts nothing and costs one comparison.
  ///
  /// The events of a cancelled effect that were not reduced yet never reach
  /// the reducer, whether it sent them before or after the cancellation.
  /// ReactiveFeedback spells this feedback `lensing` and `skippingRepeated`,
  /// RxFeedback `react(request:)`: the `FeedbackLoopCompatibility` product
  /// keeps those names for code moved from them.
  ///
  /// ```swift
  /// // The ReactiveFeedback talk's search: load the page whose URL the state asks for.
  /// Feedback<Search.State, Search.Event>.query(\.nextPageURL) { url in
  ///   .task { try await .success(store.search(url)) } catch: { .failure($0) }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - query: the part of the state the effect depends on; `nil` for none.
  ///   - strategy: what a changed query does to running effects (G7).
  ///   - name: the name monitors show; by default `query@File.swift:line`.
  ///   - fileID: where the feedback is made, for its default name.
  ///   - line: where the feedback is made, for its default name.
  ///   - effects: the effect for a query.
  @inlinable
  public static func query<Query: Equatable & Sendable>(
    _ query: @escaping @Sendable (State) -> Query?,
    strategy: ExecutionStrategy = .cancelPrevious,
    name: String? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    effects: @escaping @Sendable (Query) -> Effect<Event>
  ) -> Feedback {
    Feedback(name: name, kind: "query", fileID: fileID, line: line) { id, core in
      EffectfulRuntime.query(id: id, core: core, strategy: strategy, query: query, effects: effects)
    }
  }

  /// A predicate feedback (level-triggered, G5): every state for which
  /// `predicate` holds triggers `effects`, which by default replaces the
  /// running effect. What a state for which it does not hold does to the
  /// running effect is written at the call site, because the libraries the
  /// predicate feedback comes from disagree: ``WhenPredicateIsFalse/keepRunning``
  /// leaves it running (the definition ReactiveFeedback's talk gives),
  /// ``WhenPredicateIsFalse/cancelRunning`` cancels it (ReactiveFeedback 0.10
  /// and Loop).
  ///
  /// ```swift
  /// // Hide the HUD 3 s after it shows; hiding it by hand cancels the timer,
  /// // so no stale `.hide` arrives after a later tap shows it again.
  /// Feedback<HUD, HUD.Event>.predicate(\.isVisible, whenFalse: .cancelRunning) { _ in
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
  public static func predicate(
    _ predicate: @escaping @Sendable (State) -> Bool,
    whenFalse: WhenPredicateIsFalse,
    strategy: ExecutionStrategy = .cancelPrevious,
    name: String? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    effects: @escaping @Sendable (State) -> Effect<Event>
  ) -> Feedback {
    switch whenFalse {
    case .keepRunning:
      Feedback(name: name, kind: "predicate", fileID: fileID, line: line) { id, core in
        EffectfulRuntime.predicate(id: id, core: core, strategy: strategy, predicate: predicate, effects: effects)
      }
    case .cancelRunning:
      Feedback(name: name, kind: "predicate", fileID: fileID, line: line) { id, core in
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
