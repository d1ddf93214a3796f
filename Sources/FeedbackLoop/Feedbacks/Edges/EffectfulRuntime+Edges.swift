extension EffectfulRuntime {
  /// `onBecomingNonNil` / `onBecomingTrue`: the effect starts when the query
  /// becomes non-`nil` after `nil` (or at the initial state), and is
  /// cancelled when it becomes `nil` again; changes in between trigger
  /// nothing (G5).
  @inlinable
  static func risingEdge<Query: Sendable>(
    id: FeedbackID, core: SystemCore<State, Event>, strategy: ExecutionStrategy,
    query: @escaping @Sendable (State) -> Query?, effects: @escaping @Sendable (Query) -> Effect<Event>
  ) -> FeedbackRuntime<State, Event> {
    let runtime = EffectfulRuntime(id: id, core: core, strategy: strategy)
    let runner = runtime.unretained
    let wasNonNil = Memory(false)
    runtime.onEachState { state, _ in
      let current = query(state)
      switch (wasNonNil.value, current) {
      case (false, let value?):
        wasNonNil.value = true
        // Unretained `runner`: the system keeps this handler and its runtime alive while it can run.
        runner._withUnsafeGuaranteedRef { $0.trigger(effects(value), because: "\(value)") }
      case (true, nil):
        wasNonNil.value = false
        // Unretained `runner`: the system keeps this handler and its runtime alive while it can run.
        runner._withUnsafeGuaranteedRef { $0.cancelAll() }
      default:
        return
      }
    }
    return runtime
  }
}
