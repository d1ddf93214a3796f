extension EffectfulRuntime {
  /// `predicate`: every state that satisfies it triggers the effect
  /// (level-triggered, G5).
  @inlinable
  static func predicate(
    id: FeedbackID, core: SystemCore<State, Event>, strategy: ExecutionStrategy,
    predicate: @escaping @Sendable (State) -> Bool, effects: @escaping @Sendable (State) -> Effect<Event>
  ) -> FeedbackRuntime<State, Event> {
    let runtime = EffectfulRuntime(id: id, core: core, strategy: strategy)
    let runner = runtime.unretained
    runtime.onEachState { state, _ in
      // Unretained `runner`: the system keeps this handler and its runtime alive while it can run.
      if predicate(state) { runner._withUnsafeGuaranteedRef { $0.trigger(effects(state), because: "\(state)") } }
    }
    return runtime
  }

  /// `predicate` with ``WhenPredicateIsFalse/cancelRunning``: every state that
  /// satisfies it triggers the effect, every state that does not cancels the
  /// running one (G5). Cancelling an idle feedback costs one store and one
  /// comparison (`cancelAll`), so a long run of false states stays cheap.
  @inlinable
  static func predicateCancellingWhenFalse(
    id: FeedbackID, core: SystemCore<State, Event>, strategy: ExecutionStrategy,
    predicate: @escaping @Sendable (State) -> Bool, effects: @escaping @Sendable (State) -> Effect<Event>
  ) -> FeedbackRuntime<State, Event> {
    let runtime = EffectfulRuntime(id: id, core: core, strategy: strategy)
    let runner = runtime.unretained
    runtime.onEachState { state, _ in
      if predicate(state) {
        // Unretained `runner`: the system keeps this handler and its runtime alive while it can run.
        runner._withUnsafeGuaranteedRef { $0.trigger(effects(state), because: "\(state)") }
      } else {
        // Unretained `runner`: the system keeps this handler and its runtime alive while it can run.
        runner._withUnsafeGuaranteedRef { $0.cancelAll() }
      }
    }
    return runtime
  }
}
