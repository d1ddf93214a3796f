// The keyed feedbacks over a `TrackedSet` and a `TrackedDictionary`. The runtime keeps no copy of the
// requests, only a cursor into their change log, and its table of effects,
// whose keys are the requests of the last state. For each key the log says
// changed, membership now (`current.contains`) against membership then (the
// table) tells whether to start or cancel: a key inserted and removed again
// between two states changes nothing, as with the `Set` form, which compares
// snapshots. Only when the log cannot tell does it compare the whole set
// with the table, O(n).
//
// Built by an `@inlinable` factory, as the tree forms are (see
// KeyedTreeRuntimes.swift), so that hashing the requests runs specialized in
// the user's module.
extension KeyedRuntime where Key == Value {
  /// `requests(_:)` over a `TrackedSet`: one effect per request.
  @inlinable
  static func trackedSet(
    id: FeedbackID, core: SystemCore<State, Event>,
    requests: @escaping @Sendable (State) -> TrackedSet<Key>, effects: @escaping @Sendable (Key) -> Effect<Event>
  ) -> FeedbackRuntime<State, Event> {
    let runtime = KeyedRuntime(id: id, core: core)
    let table = runtime.table
    let cursor = Memory(ChangeCursor())
    runtime.onEachState { state, _ in
      let current = requests(state)
      switch current.changes(since: cursor.value) {
      case .unchanged:
        return
      case .changed(let touched):
        // In the order of the changes: no effect can tell, as none runs
        // before the handler returns.
        for request in touched {
          if current.contains(request) {
            if !table.isRequested(request) { table.start(request, effect: effects(request)) }
          } else {
            table.cancel(request)
          }
        }
      case .unknown:
        for request in table.requested where !current.contains(request) { table.cancel(request) }
        for request in current where !table.isRequested(request) {
          table.start(request, effect: effects(request))
        }
      }
      cursor.value = current.changeCursor
    }
    return runtime
  }
}

extension KeyedRuntime where Value: Equatable {
  /// `requests(_:)` over a `TrackedDictionary`: one effect per id; a
  /// kept id's new value is handed to its running effect.
  ///
  /// Whether a logged id's value changed is told by the values the feedback
  /// handed out last, which it keeps, one per id (the table of effects does
  /// not): a write of an equal value hands nothing over. Keeping them costs
  /// O(1) per change, not a copy of the dictionary.
  @inlinable
  static func trackedDictionary(
    id: FeedbackID, core: SystemCore<State, Event>,
    requests: @escaping @Sendable (State) -> TrackedDictionary<Key, Value>,
    effects: @escaping @Sendable (Key, Value, AsyncStream<Value>) -> Effect<Event>
  ) -> FeedbackRuntime<State, Event> {
    let runtime = KeyedRuntime(id: id, core: core)
    let table = runtime.table
    let cursor = Memory(ChangeCursor())
    let handedOut = Memory<[Key: Value]>([:])
    runtime.onEachState { state, _ in
      let current = requests(state)
      switch current.changes(since: cursor.value) {
      case .unchanged:
        return
      case .changed(let touched):
        for id in touched { reconcile(id, now: current[id]) }
      case .unknown:
        for id in Array(handedOut.value.keys) where current[id] == nil { reconcile(id, now: nil) }
        for (id, value) in current { reconcile(id, now: value) }
      }
      cursor.value = current.changeCursor
    }
    /// Starts, cancels or hands over for `id`, whose value is now `now`.
    func reconcile(_ id: Key, now: Value?) {
      let before = handedOut.value[id]
      switch (before, now) {
      case (nil, nil):
        return
      case (_?, nil):
        handedOut.value[id] = nil
        table.cancel(id)
      case (nil, let value?):
        handedOut.value[id] = value
        table.start(id) { updates in effects(id, value, updates) }
      case (let previous?, let value?):
        guard previous != value else { return }
        handedOut.value[id] = value
        table.update(id, to: value)
      }
    }
    return runtime
  }
}
