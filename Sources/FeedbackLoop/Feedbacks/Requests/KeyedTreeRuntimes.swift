import HashTreeCollections

// The keyed feedbacks over persistent collections (swift-collections'
// `TreeSet` and `TreeDictionary`). The runtime keeps the last requests, which
// share their nodes with the state's; a reducer that inserts or removes one
// key copies only the path to it (O(log n)), and the structural set
// operations below skip every subtree that both operands share. So a state
// that changed k requests costs O(k log n), not O(n) as with `Set`.
//
// The handlers are built by `@inlinable` factories, like the query
// feedbacks' (see `FeedbackRuntime`): the tree operations, generic over the
// request type, then run specialized in the user's module. Unspecialized,
// every node they visit looks up generic metadata, which measured (the keyed-feedback benchmark) cost
// more than the diff itself. Each factory makes a plain `KeyedRuntime` and
// hands the system its own handler, as every keyed form does.
extension KeyedRuntime where Key == Value {
  /// `requests(_:)` over a `TreeSet`: one effect per request.
  @inlinable
  static func treeSet(
    id: FeedbackID, core: SystemCore<State, Event>,
    requests: @escaping @Sendable (State) -> TreeSet<Key>, effects: @escaping @Sendable (Key) -> Effect<Event>
  ) -> FeedbackRuntime<State, Event> {
    let runtime = KeyedRuntime(id: id, core: core)
    let table = runtime.table
    let last = Memory<TreeSet<Key>>([])
    runtime.onEachState { state, _ in
      let current = requests(state)
      // One structural walk finds the requests in either set but not both
      // (at once for the same storage), measured faster than the two
      // `subtracting` it replaces; a lookup, O(log n), tells each one's side.
      // Starts and cancellations of one state come in the tree's order: no
      // effect can tell, as none runs before the handler returns.
      for request in last.value.symmetricDifference(current) {
        if current.contains(request) {
          table.start(request, effect: effects(request))
        } else {
          table.cancel(request)
        }
      }
      last.value = current
    }
    return runtime
  }
}

extension KeyedRuntime where Value: Equatable {
  /// `requests(_:)` over a `TreeDictionary`: one effect per id; a kept
  /// id's new value is handed to its running effect.
  ///
  /// Ids removed and added are found structurally. `TreeDictionary` has no
  /// structural operation that compares values and tells where they differ
  /// (`==` compares them structurally but answers only yes or no; `merge`
  /// walks every entry). So the handler checks structurally whether the
  /// state changed anything beyond the ids it added and removed, by applying
  /// those to the last requests and comparing: they share all but the
  /// changed paths with `last`, as `current` does unless a value changed
  /// elsewhere, so the comparison walks only those paths,
  /// O(changes · log n). Only if a kept id's value changed does it look at
  /// every entry, O(n).
  @inlinable
  static func treeDictionary(
    id: FeedbackID, core: SystemCore<State, Event>,
    requests: @escaping @Sendable (State) -> TreeDictionary<Key, Value>,
    effects: @escaping @Sendable (Key, Value, AsyncStream<Value>) -> Effect<Event>
  ) -> FeedbackRuntime<State, Event> {
    let runtime = KeyedRuntime(id: id, core: core)
    let table = runtime.table
    let last = Memory<TreeDictionary<Key, Value>>([:])
    runtime.onEachState { state, _ in
      let current = requests(state)
      let removed = last.value.keys.subtracting(current.keys)
      let added = current.keys.subtracting(last.value.keys)
      for id in removed { table.cancel(id) }
      var expected = last.value
      for id in removed { expected[id] = nil }
      for id in added { expected[id] = current[id] }
      if expected != current {
        for (id, value) in current {
          if let previous = last.value[id], previous != value { table.update(id, to: value) }
        }
      }
      for id in added {
        let value = current[id]!
        table.start(id) { updates in effects(id, value, updates) }
      }
      last.value = current
    }
    return runtime
  }
}
