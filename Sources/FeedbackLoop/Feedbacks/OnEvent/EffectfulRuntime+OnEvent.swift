extension EffectfulRuntime {
  /// `onEvent`: after each reduction, the event and the state it produced
  /// trigger an effect. `.none` leaves running effects alone.
  @inlinable
  static func event(
    id: FeedbackID, core: SystemCore<State, Event>, strategy: ExecutionStrategy,
    effects: @escaping @Sendable (Event, State) -> Effect<Event>
  ) -> FeedbackRuntime<State, Event> {
    let runtime = EffectfulRuntime(id: id, core: core, strategy: strategy)
    let runner = runtime.unretained
    runtime.onEachEvent { event, state, _ in
      let effect = effects(event, state)
      if case .none = effect.operation { return }
      // Unretained `runner`: the system keeps this handler and its runtime alive while it can run.
      runner._withUnsafeGuaranteedRef { $0.trigger(effect, because: "\(event)") }
    }
    return runtime
  }
}
