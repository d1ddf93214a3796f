/// A runtime whose effects one ``EffectRunner`` starts and cancels.
class EffectfulRuntime<State: Sendable, Event: Sendable>: FeedbackRuntime<State, Event> {
  let runner: EffectRunner<State, Event>

  init(
    id: FeedbackID,
    core: SystemCore<State, Event>,
    strategy: ExecutionStrategy,
    receivesStates: Bool,
    receivesEvents: Bool = false
  ) {
    runner = EffectRunner(core: core, feedback: id, strategy: strategy)
    super.init(id: id, core: core, receivesStates: receivesStates, receivesEvents: receivesEvents)
  }

  override func isLive(_ number: UInt64) -> Bool { runner.isLive(number) }

  override func effectEnded(_ number: UInt64, outcome: EffectOutcome) {
    runner.effectEnded(number, outcome: outcome)
  }

  override func effectID(_ number: UInt64) -> EffectID { runner.effectID(number) }

  override func stop() { runner.cancelAll() }
}

/// `lensing` / `skippingRepeated` / `react(request:)`: a query from each
/// state; a changed query triggers its effect, `nil` cancels (G4).
final class QueryRuntime<State: Sendable, Event: Sendable, Query: Equatable & Sendable>: EffectfulRuntime<State, Event>
{
  private let query: @Sendable (State) -> Query?
  private let effects: @Sendable (Query) -> Effect<Event>
  private var last: Query?

  init(
    id: FeedbackID, core: SystemCore<State, Event>, strategy: ExecutionStrategy,
    query: @escaping @Sendable (State) -> Query?, effects: @escaping @Sendable (Query) -> Effect<Event>
  ) {
    self.query = query
    self.effects = effects
    super.init(id: id, core: core, strategy: strategy, receivesStates: true)
  }

  override func onState(_ state: State) {
    let current = query(state)
    guard current != last else { return }
    last = current
    if let current {
      runner.trigger(effects(current), because: "\(current)")
    } else {
      runner.cancelAll()
    }
  }
}

/// `predicate`: every state that satisfies it triggers the effect
/// (level-triggered, G5).
final class PredicateRuntime<State: Sendable, Event: Sendable>: EffectfulRuntime<State, Event> {
  private let predicate: @Sendable (State) -> Bool
  private let effects: @Sendable (State) -> Effect<Event>

  init(
    id: FeedbackID, core: SystemCore<State, Event>, strategy: ExecutionStrategy,
    predicate: @escaping @Sendable (State) -> Bool, effects: @escaping @Sendable (State) -> Effect<Event>
  ) {
    self.predicate = predicate
    self.effects = effects
    super.init(id: id, core: core, strategy: strategy, receivesStates: true)
  }

  override func onState(_ state: State) {
    if predicate(state) { runner.trigger(effects(state), because: "\(state)") }
  }
}

/// `onBecomingNonNil` / `onBecomingTrue`: the effect starts when the query
/// becomes non-`nil` after `nil` (or at the initial state), and is cancelled
/// when it becomes `nil` again; changes in between trigger nothing (G5).
final class RisingEdgeRuntime<State: Sendable, Event: Sendable, Query: Sendable>: EffectfulRuntime<State, Event> {
  private let query: @Sendable (State) -> Query?
  private let effects: @Sendable (Query) -> Effect<Event>
  private var wasNonNil = false

  init(
    id: FeedbackID, core: SystemCore<State, Event>, strategy: ExecutionStrategy,
    query: @escaping @Sendable (State) -> Query?, effects: @escaping @Sendable (Query) -> Effect<Event>
  ) {
    self.query = query
    self.effects = effects
    super.init(id: id, core: core, strategy: strategy, receivesStates: true)
  }

  override func onState(_ state: State) {
    let current = query(state)
    switch (wasNonNil, current) {
    case (false, let value?):
      wasNonNil = true
      runner.trigger(effects(value), because: "\(value)")
    case (true, nil):
      wasNonNil = false
      runner.cancelAll()
    default:
      return
    }
  }
}
