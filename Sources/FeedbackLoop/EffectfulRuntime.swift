/// A runtime whose effects one ``EffectRunner`` starts and cancels; the
/// query, predicate and event feedbacks are this runtime with a handler.
@usableFromInline
class EffectfulRuntime<State: Sendable, Event: Sendable>: FeedbackRuntime<State, Event> {
  @usableFromInline let runner: EffectRunner<State, Event>

  @usableFromInline
  init(id: FeedbackID, core: SystemCore<State, Event>, strategy: ExecutionStrategy) {
    let runner = EffectRunner(core: core, feedback: id, strategy: strategy)
    self.runner = runner
    super.init(id: id, core: core)
  }

  @usableFromInline
  override func effectEnded(_ number: UInt64, outcome: EffectOutcome) {
    runner.effectEnded(number, outcome: outcome)
  }

  @usableFromInline
  override func effectID(_ number: UInt64) -> EffectID { runner.effectID(number) }

  @usableFromInline
  override func stop() { runner.cancelAll() }

  /// `lensing` / `skippingRepeated` / `react(request:)`: a query from each
  /// state; a changed query triggers its effect, `nil` cancels (G4).
  @inlinable
  static func query<Query: Equatable & Sendable>(
    id: FeedbackID, core: SystemCore<State, Event>, strategy: ExecutionStrategy,
    query: @escaping @Sendable (State) -> Query?, effects: @escaping @Sendable (Query) -> Effect<Event>
  ) -> FeedbackRuntime<State, Event> {
    let runtime = EffectfulRuntime(id: id, core: core, strategy: strategy)
    let runner = runtime.runner
    let memory = Memory<Query?>(nil)
    runtime.stateHandler = { state in
      let current = query(state)
      guard current != memory.value else { return }
      memory.value = current
      if let current {
        runner.trigger(effects(current), because: "\(current)")
      } else {
        runner.cancelAll()
      }
    }
    return runtime
  }

  /// `predicate`: every state that satisfies it triggers the effect
  /// (level-triggered, G5).
  @inlinable
  static func predicate(
    id: FeedbackID, core: SystemCore<State, Event>, strategy: ExecutionStrategy,
    predicate: @escaping @Sendable (State) -> Bool, effects: @escaping @Sendable (State) -> Effect<Event>
  ) -> FeedbackRuntime<State, Event> {
    let runtime = EffectfulRuntime(id: id, core: core, strategy: strategy)
    let runner = runtime.runner
    runtime.stateHandler = { state in
      if predicate(state) { runner.trigger(effects(state), because: "\(state)") }
    }
    return runtime
  }

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
    let runner = runtime.runner
    let wasNonNil = Memory(false)
    runtime.stateHandler = { state in
      let current = query(state)
      switch (wasNonNil.value, current) {
      case (false, let value?):
        wasNonNil.value = true
        runner.trigger(effects(value), because: "\(value)")
      case (true, nil):
        wasNonNil.value = false
        runner.cancelAll()
      default:
        return
      }
    }
    return runtime
  }

  /// `onEvent`: after each reduction, the event and the state it produced
  /// trigger an effect. `.none` leaves running effects alone.
  @inlinable
  static func event(
    id: FeedbackID, core: SystemCore<State, Event>, strategy: ExecutionStrategy,
    effects: @escaping @Sendable (Event, State) -> Effect<Event>
  ) -> FeedbackRuntime<State, Event> {
    let runtime = EffectfulRuntime(id: id, core: core, strategy: strategy)
    let runner = runtime.runner
    runtime.eventHandler = { event, state in
      let effect = effects(event, state)
      if case .none = effect.operation { return }
      runner.trigger(effect, because: "\(event)")
    }
    return runtime
  }
}

/// What a feedback's handler remembers between states. A class rather than a
/// captured `var`, whose every access Swift would check dynamically; only the
/// draining thread touches it.
@usableFromInline
final class Memory<Value> {
  @exclusivity(unchecked) @usableFromInline var value: Value

  @inlinable
  init(_ value: Value) { self.value = value }
}
