import DequeModule

/// A runtime that starts and cancels its feedback's effects itself (see
/// EffectfulRuntime+Effects.swift); the query, predicate and event feedbacks
/// are this runtime with a handler.
///
/// One object per feedback rather than a runtime and a separate runner:
/// an idle system's memory is mostly its feedbacks' objects (the idle-systems benchmark in
/// BENCHMARKS.md).
@usableFromInline
class EffectfulRuntime<State: Sendable, Event: Sendable>: FeedbackRuntime<State, Event> {
  // Only the owning thread touches these: dynamic exclusivity checks would
  // cost more than the work they guard.
  @usableFromInline final let strategy: ExecutionStrategy
  /// This feedback's slot in `SystemCore.watermarks`, where the loop reads
  /// the book's ``EffectBook/cancelledThrough`` before each of its events.
  /// A raw pointer into the system's allocation, valid as long as the
  /// system, which outlives this runtime (see `core`).
  @usableFromInline final let watermark: UnsafeMutablePointer<UInt64>
  /// Which effects run and wait, and which are cancelled (EffectBook.swift).
  /// A waiting effect is kept as an object (a ``WaitingEffect``), so that
  /// the book's type does not depend on `Event`: the unspecialized code of
  /// this class (`endEffect`, run once per task effect) then reaches it at
  /// fixed offsets, with no metadata look-up (the task-effects benchmark,
  /// measured: 12% slower
  /// with `Effect<Event>` in the book's type).
  @exclusivity(unchecked) @usableFromInline final var book = EffectBook<Never, Task<Void, Never>, AnyObject>()
  @exclusivity(unchecked) @usableFromInline final var triggers: [UInt64: String] = [:]

  @usableFromInline
  init(id: FeedbackID, core: SystemCore<State, Event>, strategy: ExecutionStrategy) {
    self.strategy = strategy
    assert(id.index >= 0 && id.index < max(core.feedbackCount, 1), "a watermark slot outside the system's")
    watermark = core.watermarks + id.index
    super.init(id: id, core: core)
  }

  @usableFromInline
  override func effectEnded(_ number: UInt64, outcome: EffectOutcome) {
    endEffect(number, outcome: outcome)
  }

  @usableFromInline
  override func effectID(_ number: UInt64) -> EffectID { identify(number) }

  @usableFromInline
  override func stop() { cancelAll() }

  @usableFromInline
  override func isCancelled(_ number: UInt64) -> Bool { book.isCancelled(number) }

  /// The runtime as its handlers capture it: unretained (the system keeps it
  /// alive while they can run), and called without retaining it.
  @inlinable
  final var unretained: Unmanaged<EffectfulRuntime> { Unmanaged.passUnretained(self) }

  /// The system, for the per-event path: calling through `core` retains and
  /// releases it around each access. Computed, not stored (the idle-systems benchmark).
  @inlinable
  final var loop: Unmanaged<SystemCore<State, Event>> { Unmanaged.passUnretained(core) }

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
    runtime.onEachState { state in runtime.onState(state) }
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
    let runner = runtime.unretained
    runtime.onEachState { state in
      // Unretained `runner`: the system keeps this handler and its runtime alive while it can run.
      if predicate(state) { runner._withUnsafeGuaranteedRef { $0.trigger(effects(state), because: "\(state)") } }
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
    let runner = runtime.unretained
    let wasNonNil = Memory(false)
    runtime.onEachState { state in
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

  /// `onEvent`: after each reduction, the event and the state it produced
  /// trigger an effect. `.none` leaves running effects alone.
  @inlinable
  static func event(
    id: FeedbackID, core: SystemCore<State, Event>, strategy: ExecutionStrategy,
    effects: @escaping @Sendable (Event, State) -> Effect<Event>
  ) -> FeedbackRuntime<State, Event> {
    let runtime = EffectfulRuntime(id: id, core: core, strategy: strategy)
    let runner = runtime.unretained
    runtime.onEachEvent { event, state in
      let effect = effects(event, state)
      if case .none = effect.operation { return }
      // Unretained `runner`: the system keeps this handler and its runtime alive while it can run.
      runner._withUnsafeGuaranteedRef { $0.trigger(effect, because: "\(event)") }
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
    last = current
    if let current {
      trigger(effects(current), because: "\(current)")
    } else {
      cancelAll()
    }
  }
}
