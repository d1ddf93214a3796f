// A child feedback lifted over children by id: one runtime for all the
// children, a keyed table of effects (one key per child, or per child and
// request), and handlers asked only for the children that the last event
// wrote, read from the `TrackedDictionary`'s log: O(k) per state for k
// written children, whatever their number (the children-by-id benchmark in BENCHMARKS.md).

/// Where a by-id handler's effects go: started and cancelled by key, on the
/// loop's thread. Lifting the handlers into a grandparent wraps the sink
/// once, when the runtime is made, not per event.
struct EffectSink<Key: Hashable & Sendable, Event: Sendable> {
  let start: (Key, Effect<Event>) -> Void
  let cancel: (Key) -> Void

  /// The sink as a child's handlers see it: their effects' events are
  /// embedded into the outer events.
  func pulledBack<Inner: Sendable>(_ embed: @escaping @Sendable (Inner) -> Event) -> EffectSink<Key, Inner> {
    let start = self.start
    return EffectSink<Key, Inner>(start: { key, effect in start(key, effect.map(embed)) }, cancel: cancel)
  }
}

/// What one by-id runtime does: for each written child (its state, or
/// `nil` if it went), and, for the event forms, for each event.
struct ByIDHandlers<Parent, ParentEvent, ID: Hashable, Child> {
  let onChild: (ID, Child?) -> Void
  let onEvent: ((ParentEvent, Parent) -> Void)?
}

/// A child feedback lifted over children by id.
struct ByIDRecipe<
  Parent: Sendable, ParentEvent: Sendable, ID: Hashable & Sendable, Key: Hashable & Sendable, Child: Sendable
>: FeedbackRecipe {
  typealias State = Parent
  typealias Event = ParentEvent

  let name: String
  let children: @Sendable (Parent) -> TrackedDictionary<ID, Child>?
  let makeHandlers: @Sendable (EffectSink<Key, ParentEvent>) -> ByIDHandlers<Parent, ParentEvent, ID, Child>

  func feedback() -> Feedback<Parent, ParentEvent> {
    let (children, makeHandlers) = (self.children, self.makeHandlers)
    return Feedback(name: name, kind: "byID", fileID: #fileID, line: #line) { id, core in
      let runtime = KeyedRuntime<Parent, ParentEvent, Key, Never>(id: id, core: core)
      let table = runtime.table
      let handlers = makeHandlers(
        EffectSink(start: { key, effect in table.start(key, effect: effect) }, cancel: { key in table.cancel(key) }))
      let onChild = handlers.onChild
      let cursor = Memory(ChangeCursor())
      // The children seen, each with when it appeared: children that go
      // together go in that order, the same on every run (a `Set`'s order
      // follows the process's hashing seed).
      let known = Memory([ID: UInt64]())
      let appeared = Memory<UInt64>(0)
      func see(_ id: ID, _ child: Child?) {
        if child == nil {
          known.value[id] = nil
        } else if known.value[id] == nil {
          appeared.value += 1
          known.value[id] = appeared.value
        }
        onChild(id, child)
      }
      func inAppearanceOrder(_ ids: [ID: UInt64]) -> [ID] { ids.sorted { $0.value < $1.value }.map(\.key) }
      runtime.onEachState { parent, _ in
        guard let current = children(parent) else {
          // The children's container itself went (an optional parent):
          // every child went with it.
          for id in inAppearanceOrder(known.value) { onChild(id, nil) }
          known.value = [:]
          cursor.value = ChangeCursor()
          return
        }
        switch current.changes(since: cursor.value) {
        case .unchanged:
          break
        case .changed(let touched):
          if touched.count == 1 {
            let id = touched[touched.startIndex]
            see(id, current[id])
          } else {
            var seen = Set<ID>()
            for id in touched where seen.insert(id).inserted { see(id, current[id]) }
          }
        case .unknown:
          for id in inAppearanceOrder(known.value.filter { current[$0.key] == nil }) { see(id, nil) }
          for (id, child) in current { see(id, child) }
        }
        cursor.value = current.changeCursor
      }
      if let onEvent = handlers.onEvent {
        runtime.onEachEvent { event, parent, _ in onEvent(event, parent) }
      }
      return runtime
    }
  }

  func lifted<Outer: Sendable, OuterEvent: Sendable>(
    _ scope: ChildScope<Outer, OuterEvent, Parent, ParentEvent>
  ) -> any FeedbackRecipe<Outer, OuterEvent> {
    let (children, makeHandlers, state, embed, extract) = (
      self.children, self.makeHandlers, scope.state, scope.embed, scope.extract
    )
    return ByIDRecipe<Outer, OuterEvent, ID, Key, Child>(
      name: liftedName(scope.prefix, name),
      children: { outer in state(outer).flatMap(children) },
      makeHandlers: { sink in
        let inner = makeHandlers(sink.pulledBack(embed))
        return ByIDHandlers(
          onChild: inner.onChild,
          onEvent: inner.onEvent.map { onEvent in
            { outerEvent, outer in
              guard let event = extract(outerEvent), let parent = state(outer) else { return }
              onEvent(event, parent)
            }
          })
      })
  }

  func liftedByID<Outer: Sendable, OuterEvent: Sendable, OuterID: Hashable & Sendable>(
    _ scope: ChildrenScope<Outer, OuterEvent, OuterID, Parent, ParentEvent>
  ) -> (any FeedbackRecipe<Outer, OuterEvent>)? { nil }
}
