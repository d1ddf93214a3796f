// The specialized way from a parent's state to a lifted feedback's own
// logic. A feedback lifted through a recipe (FeedbackRecipes.swift) runs
// the closures that each lift composed, once per level and per state, in
// the library, generically: every call looks up the metadata of the
// child's types (the children-by-id benchmark in BENCHMARKS.md and the nested-lifts benchmark: most of their cost). Here the
// lifts are composed at build time into one path instead:
//
// - the feedback's own logic (its tracker) is built where its types are
//   concrete, in the user's module, and takes its state by pointer, so that
//   no lift needs to know the types it hides (a query's type);
// - each lift at a stored property adds that property's byte offset
//   (`MemoryLayout.offset(of:)`), so that ten nested structs cost one
//   addition made once, not ten projections per state; an optional on the
//   way adds one presence check; a computed key path has no offset and
//   keeps the recipe's path;
// - the builders are `@inlinable`, so that the runtimes are specialized in
//   the module that lifts the feature.

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

/// The effect of a query, described by the query.
@usableFromInline
final class QueryEffectBox<Event: Sendable, Query: Sendable>: EffectBox<Event> {
  @usableFromInline let query: Query

  @inlinable
  init(_ effect: Effect<Event>, query: Query) {
    self.query = query
    super.init(effect)
  }

  @usableFromInline
  override var because: String { "\(query)" }
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

/// An optional on the way to a lifted feedback's state.
@usableFromInline
struct PresenceCheck: Sendable {
  /// Where the optional is, in bytes from the start of the path's state.
  @usableFromInline let offset: Int
  @usableFromInline let isPresent: @Sendable (UnsafeRawPointer) -> Bool

  @inlinable
  init(offset: Int, isPresent: @escaping @Sendable (UnsafeRawPointer) -> Bool) {
    self.offset = offset
    self.isPresent = isPresent
  }
}

/// A feedback's logic and where its state is inside `State`: the lifts of
/// a feedback composed into one path.
@usableFromInline
struct LeafPath<State: Sendable, Event: Sendable>: Sendable {
  /// The feedback's logic, and a new child's memory for it.
  @usableFromInline let logic: LeafLogic
  @usableFromInline let makeMemory: @Sendable () -> LeafMemory
  @usableFromInline let strategy: ExecutionStrategy
  /// Where the feedback's own state is, in bytes from the start of `State`.
  @usableFromInline let offset: Int
  /// The optionals on the way, outermost first.
  @usableFromInline let presence: [PresenceCheck]
  /// The effect in a tracker's box, its events embedded into `Event`.
  @usableFromInline let effect: @Sendable (EffectTrigger) -> Effect<Event>
  /// The feedback's kind, as monitors show it.
  @usableFromInline let kind: StaticString

  @inlinable
  init(
    logic: @escaping LeafLogic, makeMemory: @escaping @Sendable () -> LeafMemory, strategy: ExecutionStrategy,
    offset: Int, presence: [PresenceCheck], effect: @escaping @Sendable (EffectTrigger) -> Effect<Event>,
    kind: StaticString = "query"
  ) {
    self.kind = kind
    self.logic = logic
    self.makeMemory = makeMemory
    self.strategy = strategy
    self.offset = offset
    self.presence = presence
    self.effect = effect
  }

  /// A query feedback's logic (G4): a changed query restarts the effect,
  /// `nil` (or no state) cancels it.
  @inlinable
  static func query<Query: Equatable & Sendable>(
    _ query: @escaping @Sendable (State) -> Query?, strategy: ExecutionStrategy,
    effects: @escaping @Sendable (Query) -> Effect<Event>
  ) -> LeafPath {
    LeafPath(
      logic: { state, memory in
        // The memory this path made: its own kind, unchecked.
        let memory = unsafeDowncast(memory, to: QueryMemory<Query>.self)
        let current = state.flatMap { query($0.assumingMemoryBound(to: State.self).pointee) }
        guard current != memory.last else { return .keep }
        memory.last = current
        guard let current else { return .cancel }
        let effect = effects(current)
        // A query's effect that does nothing is not described either:
        // the runtimes consult `because` only for an effect that runs.
        if effect.isNone { return .restartDoingNothing }
        return .restart(QueryEffectBox(effect, query: current))
      },
      makeMemory: { QueryMemory<Query>() },
      strategy: strategy, offset: 0, presence: [],
      effect: { unsafeDowncast($0, to: EffectBox<Event>.self).effect })
  }

  /// A level-triggered predicate feedback's logic (G5): every state for
  /// which `predicate` holds restarts the effect (described by the state,
  /// when a monitor asks); one for which it does not leaves it alone, or
  /// cancels it (`whenFalse`); no state cancels it. The same steps as the
  /// predicate's recipe, which described every triggering state at once.
  @inlinable
  static func predicate(
    _ predicate: @escaping @Sendable (State) -> Bool, whenFalse: WhenPredicateIsFalse, strategy: ExecutionStrategy,
    effects: @escaping @Sendable (State) -> Effect<Event>
  ) -> LeafPath {
    let cancelsWhenFalse = whenFalse == .cancelRunning
    return LeafPath(
      logic: { state, _ in
        guard let state else { return .cancel }
        let value = state.assumingMemoryBound(to: State.self).pointee
        guard predicate(value) else { return cancelsWhenFalse ? .cancel : .keep }
        // Described by the state, as a query's effect is by its query.
        return .restart(QueryEffectBox(effects(value), query: value))
      },
      makeMemory: { LeafMemory() },
      strategy: strategy, offset: 0, presence: [],
      effect: { unsafeDowncast($0, to: EffectBox<Event>.self).effect }, kind: "predicate")
  }

  /// Where the feedback's own state is in the state at `base`, or `nil` if
  /// an optional on the way is `nil`. Every offset is a stored property's
  /// (built from `MemoryLayout.offset(of:)`), and each optional is checked
  /// before the path goes into it, so the pointer stays inside the state.
  @inlinable
  func locate(_ base: UnsafeRawPointer) -> UnsafeRawPointer? {
    if !presence.isEmpty {
      for check in presence where !check.isPresent(base + check.offset) { return nil }
    }
    return base + offset
  }

  /// The effect from a tracker's box, as `Event`'s, one level up: an effect
  /// that does nothing is not wrapped.
  @inlinable
  func embedding<Parent: Sendable>(
    _ embed: @escaping @Sendable (Event) -> Parent
  ) -> @Sendable (EffectTrigger) -> Effect<Parent> {
    let effect = self.effect
    return { box in
      let inner = effect(box)
      if case .none = inner.operation { return Effect<Parent>(.none) }
      return inner.map(embed)
    }
  }

  /// This path one level up, through the stored property `path`; `nil` if
  /// `path` is not a stored property of a struct (no offset).
  @inlinable
  func lifted<Parent: Sendable, ParentEvent: Sendable>(
    state path: PartialKeyPath<Parent>, embed: @escaping @Sendable (Event) -> ParentEvent
  ) -> LeafPath<Parent, ParentEvent>? {
    guard let outer = MemoryLayout<Parent>.offset(of: path) else { return nil }
    return LeafPath<Parent, ParentEvent>(
      logic: logic, makeMemory: makeMemory, strategy: strategy, offset: outer + offset,
      presence: presence.map { PresenceCheck(offset: outer + $0.offset, isPresent: $0.isPresent) },
      effect: embedding(embed), kind: kind)
  }

  /// This path one level up, through the stored optional `path`: absent
  /// while it is `nil`. An `Optional`'s payload starts at its own offset 0
  /// (the single-payload enum layout of Swift's stable ABI,
  /// docs/ABI/TypeLayout.rst), so the offset of the state inside is the
  /// optional's.
  @inlinable
  func lifted<Parent: Sendable, ParentEvent: Sendable>(
    optional path: KeyPath<Parent, State?>, embed: @escaping @Sendable (Event) -> ParentEvent
  ) -> LeafPath<Parent, ParentEvent>? {
    guard let outer = MemoryLayout<Parent>.offset(of: path) else { return nil }
    let here = PresenceCheck(offset: outer) { $0.assumingMemoryBound(to: State?.self).pointee != nil }
    return LeafPath<Parent, ParentEvent>(
      logic: logic, makeMemory: makeMemory, strategy: strategy, offset: outer + offset,
      presence: [here] + presence.map { PresenceCheck(offset: outer + $0.offset, isPresent: $0.isPresent) },
      effect: embedding(embed), kind: kind)
  }

  /// The feedback for a system of `State`, named `name`.
  @inlinable
  func feedback(name: String) -> Feedback<State, Event> {
    let (logic, makeMemory, strategy, effect, path) = (
      self.logic, self.makeMemory, self.strategy, self.effect, self
    )
    return Feedback(name: name, kind: kind, fileID: #fileID, line: #line) { id, core in
      let runtime = EffectfulRuntime(id: id, core: core, strategy: strategy)
      let runner = runtime.unretained
      let memory = makeMemory()
      runtime.onEachState { state in
        // The pointer lives for the closure only; the path's offsets are
        // stored properties' (`locate`), so they stay inside `state`.
        let step = withUnsafePointer(to: state) { logic(path.locate(UnsafeRawPointer($0)), memory) }
        switch step {
        case .keep: return
        // Unretained `runner`: the system keeps this handler and its runtime alive while it can run.
        case .cancel: runner._withUnsafeGuaranteedRef { $0.cancelAll() }
        case .restart(let box):
          // Unretained `runner`: the system keeps this handler and its runtime alive while it can run.
          runner._withUnsafeGuaranteedRef { $0.trigger(effect(box), because: box.because) }
        case .restartDoingNothing:
          // Unretained `runner`: the system keeps this handler and its runtime alive while it can run.
          runner._withUnsafeGuaranteedRef { $0.trigger(Effect(.none), because: nil) }
        }
      }
      return runtime
    }
  }

  /// The feedback over children by id at `children` of the parent's state:
  /// one tracker per child, created when the child first appears, dropped
  /// when it goes; a state costs O(k) for the k children its events wrote,
  /// read from the dictionary's log. Children that go together (the
  /// dictionary replaced wholesale) have their effects cancelled in the
  /// order the children appeared. See ``ByIDLeafRuntime``.
  @inlinable
  func byIDFeedback<Parent: Sendable, ParentEvent: Sendable, ID: Hashable & Sendable>(
    name: String, children: KeyPath<Parent, TrackedDictionary<ID, State>> & Sendable,
    embed: @escaping @Sendable (ID, Event) -> ParentEvent
  ) -> Feedback<Parent, ParentEvent> {
    let (logic, makeMemory, effect, leafOffset, presence) = (
      self.logic, self.makeMemory, self.effect, self.offset, self.presence
    )
    let childEffect: @Sendable (ID, EffectTrigger) -> Effect<ParentEvent> = { id, box in
      let inner = effect(box)
      if case .none = inner.operation { return Effect<ParentEvent>(.none) }
      return inner.map { embed(id, $0) }
    }
    let offset = MemoryLayout<Parent>.offset(of: children)
    return Feedback(name: name, kind: "byID", fileID: #fileID, line: #line) { id, core in
      let runtime = ByIDLeafRuntime<Parent, ParentEvent, ID, State>(
        id: id, core: core, logic: logic, makeMemory: makeMemory, offset: leafOffset, presence: presence,
        effect: childEffect)
      let runner = Unmanaged.passUnretained(runtime)
      if let offset {
        runtime.onEachState { parent in
          // `offset` is the stored property's (`MemoryLayout.offset(of:)`
          // gave it), so the sum is the children, inside `parent`, for the
          // closure's duration.
          withUnsafePointer(to: parent) { pointer in
            let children = UnsafeRawPointer(pointer).advanced(by: offset)
              .assumingMemoryBound(to: TrackedDictionary<ID, State>.self)
            // Unretained `runner`: the system keeps this handler and its runtime alive while it can run.
            runner._withUnsafeGuaranteedRef { $0.onChildren(children) }
          }
        }
      } else {
        runtime.onEachState { parent in
          // The pointer lives for the closure only, as `receive` reads it.
          withUnsafePointer(to: parent[keyPath: children]) { pointer in
            // Unretained `runner`: the system keeps this handler and its runtime alive while it can run.
            runner._withUnsafeGuaranteedRef { $0.onChildren(pointer) }
          }
        }
      }
      return runtime
    }
  }
}

extension LeafPath {
  /// The by-id form of ``byIDFeedback(name:children:embed:)`` that further
  /// lifts compose (ByIDPath.swift); `nil` if `children` is not a stored
  /// property (no offset), where the lifts keep the recipe's path.
  @inlinable
  func byIDPath<Parent: Sendable, ParentEvent: Sendable, ID: Hashable & Sendable>(
    children: KeyPath<Parent, TrackedDictionary<ID, State>>,
    embed: @escaping @Sendable (ID, Event) -> ParentEvent
  ) -> (any ByIDPath<Parent, ParentEvent>)? {
    guard let offset = MemoryLayout<Parent>.offset(of: children) else { return nil }
    let effect = self.effect
    return ByIDLeafPath<Parent, ParentEvent, ID, State>(
      logic: logic, makeMemory: makeMemory, leafOffset: self.offset, leafPresence: presence,
      effect: { id, box in
        let inner = effect(box)
        if case .none = inner.operation { return Effect<ParentEvent>(.none) }
        return inner.map { embed(id, $0) }
      },
      childrenOffset: offset, childrenPresence: [])
  }
}

/// A projection of a stored property: its byte offset read directly where
/// the key path has one, the key path otherwise. A key path applied at run
/// time goes through the runtime's generic projection, about a hundred
/// nanoseconds a state (measured in a standalone release build). The
/// recipes' feedbacks by id read their children through it.
@inlinable
func storedProjection<Root, Value>(_ path: KeyPath<Root, Value> & Sendable) -> @Sendable (Root) -> Value {
  guard let offset = MemoryLayout<Root>.offset(of: path) else { return { $0[keyPath: path] } }
  return { root in
    // A stored property's offset (`offset(of:)` was not `nil`): the sum is
    // that property of `root`, read while the pointer lives.
    withUnsafePointer(to: root) {
      UnsafeRawPointer($0).advanced(by: offset).assumingMemoryBound(to: Value.self).pointee
    }
  }
}
