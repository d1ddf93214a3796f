// What one lifted feedback's logic decides after each of its states
// (`LeafStep`), the effects it starts, described by what started them
// (`EffectBox`), and what it remembers per child between states
// (`LeafMemory`); the path that reaches that logic is LeafPath.swift.

/// What a lifted feedback does after one new state of its own.
@usableFromInline
enum LeafStep {
  /// Nothing changed for its effect.
  case keep
  /// Cancel its effect: its query went to `nil`, or its state went.
  case cancel
  /// Start a new effect (an ``EffectBox`` of the feedback's own events).
  case restart(EffectTrigger)
  /// Cancel its effect: the new one does nothing (`.none`). No box, so no
  /// allocation, and no lift on the way is asked to embed it (the children-by-id benchmark, the nested-lifts benchmark).
  case restartDoingNothing
  /// A requests feedback's set changed: the memory (a ``PendingRequests``)
  /// holds the requests to cancel and to start, for the by-id runtime to do.
  case requestsChanged
}

/// Why an effect started, described only when a monitor asks: describing
/// a query formats it, which costs more than the rest of a state's work.
@usableFromInline
class EffectTrigger {
  @usableFromInline
  init() {}

  /// The trigger, as the monitor shows it.
  @usableFromInline
  var because: String { "" }
}

/// An effect of a lifted feedback's own events, carried through the lifts
/// that do not know their type; unboxed by the path that made it.
@usableFromInline
class EffectBox<Event: Sendable>: EffectTrigger {
  @usableFromInline let effect: Effect<Event>

  @inlinable
  init(_ effect: Effect<Event>) {
    self.effect = effect
    super.init()
  }
}

/// An effect described by what started it: a query, an event, a request
/// (the by-id table's key describes itself as `id: request`).
@usableFromInline
final class DescribedEffectBox<Event: Sendable, Trigger: Sendable>: EffectBox<Event> {
  @usableFromInline let trigger: Trigger

  @inlinable
  init(_ effect: Effect<Event>, trigger: Trigger) {
    self.trigger = trigger
    super.init(effect)
  }

  @usableFromInline
  override var because: String { "\(trigger)" }
}

/// What one child's feedback remembers between its states (a query
/// feedback: its last query), subclassed by each kind of logic; a by-id
/// feedback keeps one per child. One object per child, so that 10,000
/// children are 10,000 objects, not three times as many (the children-by-id benchmark at 10,000 children).
@usableFromInline
class LeafMemory {
  /// When the child appeared, among its siblings (by-id feedbacks only).
  @exclusivity(unchecked) @usableFromInline var appeared: UInt64 = 0
  /// Whether the by-id feedback's table of effects holds an entry for the
  /// child (see `ByIDLeafRuntime.act(on:for:memory:)`).
  @exclusivity(unchecked) @usableFromInline var hasEntry = false
  /// Where the by-id feedback's table of recent writes holds this memory,
  /// or -1 (see `ByIDLeafRuntime.recent`).
  @exclusivity(unchecked) @usableFromInline var recentSlot = -1

  @inlinable
  init() {}
}

/// A query feedback's memory: its last query.
@usableFromInline
final class QueryMemory<Query>: LeafMemory {
  // Unchecked: only the loop touches it, one state at a time (a checked
  // access cost a runtime call per state).
  @exclusivity(unchecked) @usableFromInline var last: Query? = nil

  @inlinable
  override init() { super.init() }
}

/// A feedback's logic, shared by all its children: fed a pointer to one
/// child's state (or `nil` while it does not exist) and that child's
/// memory, made by the same path. Built where the feedback's types are
/// concrete; called on the loop only.
@usableFromInline
typealias LeafLogic = @Sendable (UnsafeRawPointer?, LeafMemory) -> LeafStep

/// An event feedback's logic: fed a pointer to one of the path's events
/// (its `Event`, extracted by the lifts on the way) and a pointer to the
/// feedback's own state that the event produced (`nil` while it does not
/// exist). `.keep` for an effect that does nothing (running effects are
/// left alone), `.restart` for one to start in place of the running one.
@usableFromInline
typealias LeafEventLogic = @Sendable (UnsafeRawPointer, UnsafeRawPointer?) -> LeafStep

/// A requests feedback's memory, as the by-id runtime reads it: what its
/// last set's change asks for, each request numbered by a serial of the
/// child's (its key in the table, with the child's id). Emptied by the
/// runtime once done.
@usableFromInline
class PendingRequests: LeafMemory {
  @exclusivity(unchecked) @usableFromInline var cancels: [UInt64] = []
  @exclusivity(unchecked) @usableFromInline var starts: [(serial: UInt64, box: EffectTrigger)] = []

  @inlinable
  override init() { super.init() }
}

/// A requests feedback's memory: its last set, and each request's serial.
@usableFromInline
final class RequestsMemory<Request: Hashable>: PendingRequests {
  @exclusivity(unchecked) @usableFromInline var last: Set<Request> = []
  @exclusivity(unchecked) @usableFromInline var serials: [Request: UInt64] = [:]
  @exclusivity(unchecked) @usableFromInline var nextSerial: UInt64 = 0

  @inlinable
  override init() { super.init() }
}
