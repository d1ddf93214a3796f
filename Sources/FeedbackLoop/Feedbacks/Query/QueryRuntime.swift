extension EffectfulRuntime {
  /// `Feedback.query(_:)`: a query from each
  /// state; a changed query triggers its effect, `nil` cancels (G4).
  @inlinable
  static func query<Query: Equatable & Sendable>(
    id: FeedbackID, core: SystemCore<State, Event>, strategy: ExecutionStrategy,
    query: @escaping @Sendable (State) -> Query?, effects: @escaping @Sendable (Query) -> Effect<Event>
  ) -> FeedbackRuntime<State, Event> {
    let runtime = QueryRuntime(id: id, core: core, strategy: strategy, query: query, effects: effects)
    // The handler captures the runtime alone, so its context is the runtime:
    // no closure context and no box for the last query (the idle-systems benchmark). The system
    // keeps the handler, which keeps the runtime; the runtime keeps neither.
    runtime.onEachState { state, _ in runtime.onState(state) }
    return runtime
  }
}

/// The runtime of a query feedback: it remembers the last query itself.
@usableFromInline
final class QueryRuntime<State: Sendable, Event: Sendable, Query: Equatable & Sendable>: EffectfulRuntime<
  State, Event
>
{
  @usableFromInline let query: @Sendable (State) -> Query?
  @usableFromInline let effects: @Sendable (Query) -> Effect<Event>
  @exclusivity(unchecked) @usableFromInline var last: Query?

  @inlinable
  init(
    id: FeedbackID, core: SystemCore<State, Event>, strategy: ExecutionStrategy,
    query: @escaping @Sendable (State) -> Query?, effects: @escaping @Sendable (Query) -> Effect<Event>
  ) {
    self.query = query
    self.effects = effects
    super.init(id: id, core: core, strategy: strategy)
  }

  @inlinable
  func onState(_ state: State) { onQuery(query(state)) }

  /// A changed query triggers its effect; `nil` cancels (G4). Called with the
  /// query itself where it is known without the state (``ElementWatchers``).
  @inlinable
  func onQuery(_ current: Query?) {
    guard current != last else { return }
    queryChanged(to: current)
  }

  /// The rarer half of ``onQuery(_:)``, kept out of line so that the
  /// comparison, which runs for every feedback at every state, is inlined
  /// into the handler with the query's call: passed on as an argument to a
  /// call of its own, an optional query was read back wider than it was
  /// written, a stall that doubled W3plain's time per event.
  @inlinable @inline(never)
  func queryChanged(to current: Query?) {
    last = current
    if let current {
      trigger(effects(current), because: "\(current)")
    } else {
      cancelAll()
    }
  }
}
