extension Feedback {
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
}
