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
  /// An event feedback's logic (its `logic` then only cancels its effect
  /// when its state goes); `nil` for the kinds that read states only.
  @usableFromInline let eventLogic: LeafEventLogic?
  /// Whether `logic` acts on its state's absence only (an event
  /// feedback's): a child written in place, with no optional on the way
  /// to the feedback's state, asks it nothing.
  @usableFromInline let presenceOnly: Bool
  /// Whether the logic keeps several effects per child (a requests
  /// feedback's, `.requestsChanged`): its by-id table is keyed by child and
  /// request.
  @usableFromInline let requestsPerChild: Bool

  /// Whether ``feedback(name:)`` expresses this path: one effect at a
  /// time, fed states only. The event and requests kinds' paths serve the
  /// lifts by id only (``byIDFeedback(name:children:embed:extract:)``);
  /// anywhere else their recipe makes the feedback.
  @inlinable
  var standalone: Bool { eventLogic == nil && !requestsPerChild }

  @inlinable
  init(
    logic: @escaping LeafLogic, makeMemory: @escaping @Sendable () -> LeafMemory, strategy: ExecutionStrategy,
    offset: Int, presence: [PresenceCheck], effect: @escaping @Sendable (EffectTrigger) -> Effect<Event>,
    kind: StaticString = "query", eventLogic: LeafEventLogic? = nil, presenceOnly: Bool = false,
    requestsPerChild: Bool = false
  ) {
    self.kind = kind
    self.eventLogic = eventLogic
    self.presenceOnly = presenceOnly
    self.requestsPerChild = requestsPerChild
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
        return .restart(DescribedEffectBox(effect, trigger: current))
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
        return .restart(DescribedEffectBox(effects(value), trigger: value))
      },
      makeMemory: { LeafMemory() },
      strategy: strategy, offset: 0, presence: [],
      effect: { unsafeDowncast($0, to: EffectBox<Event>.self).effect }, kind: "predicate")
  }

  /// An event feedback's logic, for its lifts by id: after each of the
  /// child's events, `effects` is asked with the event and the state it
  /// produced; an effect that does nothing leaves the running one alone,
  /// another replaces it. The child's going (or its feedback's state's)
  /// cancels it. The same steps as the event recipe's by id.
  @inlinable
  static func onEvent(effects: @escaping @Sendable (Event, State) -> Effect<Event>) -> LeafPath {
    LeafPath(
      logic: { state, _ in state == nil ? .cancel : .keep },
      makeMemory: { LeafMemory() },
      strategy: .cancelPrevious, offset: 0, presence: [],
      effect: { unsafeDowncast($0, to: EffectBox<Event>.self).effect }, kind: "onEvent",
      eventLogic: { event, state in
        guard let state else { return .keep }
        let event = event.assumingMemoryBound(to: Event.self).pointee
        let effect = effects(event, state.assumingMemoryBound(to: State.self).pointee)
        if effect.isNone { return .keep }
        // Described by the event, as the core's event feedback describes it.
        return .restart(DescribedEffectBox(effect, trigger: event))
      },
      presenceOnly: true)
  }

  /// A requests feedback's logic (G6), for its lifts by id: each state's
  /// set is compared with the child's last one; the requests gone are
  /// cancelled, the new ones started (each numbered by a serial of the
  /// child's, its key in the table with the child's id), the kept ones left
  /// alone; the child's going cancels them all. The same steps, in the same
  /// order, as the requests recipe's by id.
  @inlinable
  static func requests<Request: Hashable & Sendable>(
    _ requests: @escaping @Sendable (State) -> Set<Request>, effects: @escaping @Sendable (Request) -> Effect<Event>
  ) -> LeafPath {
    LeafPath(
      logic: { state, memory in
        // The memory this path made: its own kind, unchecked.
        let memory = unsafeDowncast(memory, to: RequestsMemory<Request>.self)
        let current = state.map { requests($0.assumingMemoryBound(to: State.self).pointee) } ?? []
        guard current != memory.last else { return .keep }
        let previous = memory.last
        memory.last = current
        for request in previous.subtracting(current) {
          if let serial = memory.serials.removeValue(forKey: request) { memory.cancels.append(serial) }
        }
        for request in current.subtracting(previous) {
          memory.nextSerial &+= 1
          memory.serials[request] = memory.nextSerial
          memory.starts.append((memory.nextSerial, DescribedEffectBox(effects(request), trigger: request)))
        }
        return .requestsChanged
      },
      makeMemory: { RequestsMemory<Request>() },
      strategy: .merge, offset: 0, presence: [],
      effect: { unsafeDowncast($0, to: EffectBox<Event>.self).effect }, kind: "requests",
      requestsPerChild: true)
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

  /// The event logic one level up: it is asked for the parent's events that
  /// `extract` takes to this path's.
  @inlinable
  func eventLogic<ParentEvent: Sendable>(
    extracting extract: @escaping @Sendable (ParentEvent) -> Event?
  ) -> LeafEventLogic? {
    guard let inner = eventLogic else { return nil }
    return { event, state in
      guard let own = extract(event.assumingMemoryBound(to: ParentEvent.self).pointee) else { return .keep }
      // The pointer lives for the call only, as the logic reads it.
      return withUnsafePointer(to: own) { inner(UnsafeRawPointer($0), state) }
    }
  }

  /// This path one level up, through the stored property `path`; `nil` if
  /// `path` is not a stored property of a struct (no offset).
  @inlinable
  func lifted<Parent: Sendable, ParentEvent: Sendable>(
    state path: PartialKeyPath<Parent>, embed: @escaping @Sendable (Event) -> ParentEvent,
    extract: @escaping @Sendable (ParentEvent) -> Event?
  ) -> LeafPath<Parent, ParentEvent>? {
    guard let outer = MemoryLayout<Parent>.offset(of: path) else { return nil }
    return LeafPath<Parent, ParentEvent>(
      logic: logic, makeMemory: makeMemory, strategy: strategy, offset: outer + offset,
      presence: presence.map { PresenceCheck(offset: outer + $0.offset, isPresent: $0.isPresent) },
      effect: embedding(embed), kind: kind, eventLogic: eventLogic(extracting: extract), presenceOnly: presenceOnly,
      requestsPerChild: requestsPerChild)
  }

  /// This path one level up, through the stored optional `path`: absent
  /// while it is `nil`. An `Optional`'s payload starts at its own offset 0
  /// (the single-payload enum layout of Swift's stable ABI,
  /// docs/ABI/TypeLayout.rst), so the offset of the state inside is the
  /// optional's.
  @inlinable
  func lifted<Parent: Sendable, ParentEvent: Sendable>(
    optional path: KeyPath<Parent, State?>, embed: @escaping @Sendable (Event) -> ParentEvent,
    extract: @escaping @Sendable (ParentEvent) -> Event?
  ) -> LeafPath<Parent, ParentEvent>? {
    guard let outer = MemoryLayout<Parent>.offset(of: path) else { return nil }
    let here = PresenceCheck(offset: outer) { $0.assumingMemoryBound(to: State?.self).pointee != nil }
    return LeafPath<Parent, ParentEvent>(
      logic: logic, makeMemory: makeMemory, strategy: strategy, offset: outer + offset,
      presence: [here] + presence.map { PresenceCheck(offset: outer + $0.offset, isPresent: $0.isPresent) },
      effect: embedding(embed), kind: kind, eventLogic: eventLogic(extracting: extract), presenceOnly: presenceOnly,
      requestsPerChild: requestsPerChild)
  }

  /// The feedback for a system of `State`, named `name`: for the paths
  /// that are ``standalone`` only (one effect at a time, fed states).
  @inlinable
  func feedback(name: String) -> Feedback<State, Event> {
    assert(standalone, "an event or requests path makes feedbacks by id only")
    let (logic, makeMemory, strategy, effect, path) = (
      self.logic, self.makeMemory, self.strategy, self.effect, self
    )
    return Feedback(name: name, kind: kind, fileID: #fileID, line: #line) { id, core in
      let runtime = EffectfulRuntime(id: id, core: core, strategy: strategy)
      let runner = runtime.unretained
      let memory = makeMemory()
      runtime.onEachState { _, stored in
        // The pointer lives for the call only; the path's offsets are
        // stored properties' (`locate`), so they stay inside the state.
        let step = logic(path.locate(UnsafeRawPointer(stored)), memory)
        switch step {
        case .keep, .requestsChanged: return
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

  /// The effect in a tracker's box, as the parent's events of child `id`.
  @inlinable
  func childEffect<ParentEvent: Sendable, ID: Hashable & Sendable>(
    _ embed: @escaping @Sendable (ID, Event) -> ParentEvent
  ) -> @Sendable (ID, EffectTrigger) -> Effect<ParentEvent> {
    let effect = self.effect
    return { id, box in
      let inner = effect(box)
      if case .none = inner.operation { return Effect<ParentEvent>(.none) }
      return inner.map { embed(id, $0) }
    }
  }

  /// The feedback over children by id at `children` of the parent's state:
  /// one tracker per child, created when the child first appears, dropped
  /// when it goes; a state costs O(k) for the k children its events wrote,
  /// read from the dictionary's log. Children that go together (the
  /// dictionary replaced wholesale) have their effects cancelled in the
  /// order the children appeared. An event feedback is asked, after each
  /// parent's event that `extract` takes to a child's, with that child's
  /// event and state; a requests feedback keeps its effects by child and
  /// request. See ``ByIDLeafRuntime``.
  @inlinable
  func byIDFeedback<Parent: Sendable, ParentEvent: Sendable, ID: Hashable & Sendable>(
    name: String, children: KeyPath<Parent, TrackedDictionary<ID, State>> & Sendable,
    embed: @escaping @Sendable (ID, Event) -> ParentEvent, extract: @escaping @Sendable (ParentEvent) -> (ID, Event)?
  ) -> Feedback<Parent, ParentEvent> {
    if requestsPerChild {
      return byIDFeedback(ByChildRequest<ID>.self, name: name, children: children, embed: embed, extract: extract)
    }
    return byIDFeedback(ByChild<ID>.self, name: name, children: children, embed: embed, extract: extract)
  }

  /// ``byIDFeedback(name:children:embed:extract:)`` with its table keyed by `Keying`.
  @inlinable
  func byIDFeedback<Parent: Sendable, ParentEvent: Sendable, ID: Hashable & Sendable, Keying: ByIDKeying>(
    _ keying: Keying.Type, name: String, children: KeyPath<Parent, TrackedDictionary<ID, State>> & Sendable,
    embed: @escaping @Sendable (ID, Event) -> ParentEvent, extract: @escaping @Sendable (ParentEvent) -> (ID, Event)?
  ) -> Feedback<Parent, ParentEvent> where Keying.ID == ID {
    let (logic, makeMemory, leafOffset, presence, eventLogic, presenceOnly) = (
      self.logic, self.makeMemory, self.offset, self.presence, self.eventLogic, self.presenceOnly
    )
    let childEffect = childEffect(embed)
    let offset = MemoryLayout<Parent>.offset(of: children)
    return Feedback(name: name, kind: "byID", fileID: #fileID, line: #line) { id, core in
      let runtime = ByIDLeafRuntime<Parent, ParentEvent, ID, State, Keying>(
        id: id, core: core, logic: logic, makeMemory: makeMemory, offset: leafOffset, presence: presence,
        effect: childEffect, presenceOnly: presenceOnly)
      let runner = Unmanaged.passUnretained(runtime)
      if let offset {
        runtime.onEachState { _, stored in
          // `offset` is the stored property's (`MemoryLayout.offset(of:)`
          // gave it), so the sum is the children, inside the state, for the
          // call's duration.
          let children = UnsafeRawPointer(stored).advanced(by: offset)
            .assumingMemoryBound(to: TrackedDictionary<ID, State>.self)
          // Unretained `runner`: the system keeps this handler and its runtime alive while it can run.
          runner._withUnsafeGuaranteedRef { $0.onChildren(children) }
        }
        if let eventLogic {
          runtime.onEachEvent { event, _, stored in
            guard let (child, own) = extract(event) else { return }
            // As above: the children, inside the state, and the child's
            // event, for the call's duration.
            let children = UnsafeRawPointer(stored).advanced(by: offset)
              .assumingMemoryBound(to: TrackedDictionary<ID, State>.self)
            withUnsafePointer(to: own) { own in
              // Unretained `runner`: the system keeps this handler and its runtime alive while it can run.
              runner._withUnsafeGuaranteedRef {
                $0.onEvent(UnsafeRawPointer(own), of: child, children, logic: eventLogic)
              }
            }
          }
        }
      } else {
        runtime.onEachState { parent, _ in
          // The pointer lives for the closure only, as `receive` reads it.
          withUnsafePointer(to: parent[keyPath: children]) { pointer in
            // Unretained `runner`: the system keeps this handler and its runtime alive while it can run.
            runner._withUnsafeGuaranteedRef { $0.onChildren(pointer) }
          }
        }
        if let eventLogic {
          runtime.onEachEvent { event, parent, _ in
            guard let (child, own) = extract(event) else { return }
            // The pointers live for the closure only, as `onEvent` reads them.
            withUnsafePointer(to: parent[keyPath: children]) { pointer in
              withUnsafePointer(to: own) { own in
                // Unretained `runner`: the system keeps this handler and its runtime alive while it can run.
                runner._withUnsafeGuaranteedRef {
                  $0.onEvent(UnsafeRawPointer(own), of: child, pointer, logic: eventLogic)
                }
              }
            }
          }
        }
      }
      return runtime
    }
  }
}

extension LeafPath {
  /// The by-id form of ``byIDFeedback(name:children:embed:extract:)`` that
  /// further lifts compose (ByIDPath.swift); `nil` if `children` is not a
  /// stored property (no offset), where the lifts keep the recipe's path.
  @inlinable
  func byIDPath<Parent: Sendable, ParentEvent: Sendable, ID: Hashable & Sendable>(
    children: KeyPath<Parent, TrackedDictionary<ID, State>>,
    embed: @escaping @Sendable (ID, Event) -> ParentEvent, extract: @escaping @Sendable (ParentEvent) -> (ID, Event)?
  ) -> (any ByIDPath<Parent, ParentEvent>)? {
    guard let offset = MemoryLayout<Parent>.offset(of: children) else { return nil }
    return ByIDLeafPath<Parent, ParentEvent, ID, State, Event>(
      logic: logic, makeMemory: makeMemory, leafOffset: self.offset, leafPresence: presence,
      effect: childEffect(embed), eventLogic: eventLogic, presenceOnly: presenceOnly,
      requestsPerChild: requestsPerChild, extract: extract, childrenOffset: offset, childrenPresence: [])
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
