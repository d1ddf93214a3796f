import HashTreeCollections

// The keyed feedbacks over persistent collections (swift-collections'
// `TreeSet` and `TreeDictionary`). The runtime keeps the last requests, which
// share their nodes with the state's; a reducer that inserts or removes one
// key copies only the path to it (O(log n)), and the structural set
// operations below skip every subtree that both operands share. So a state
// that changed k requests costs O(k log n), not O(n) as with `Set`.

/// `react(requests:)` over a `TreeSet`: one effect per request.
final class KeyedTreeSetRuntime<State: Sendable, Event: Sendable, Request: Hashable & Sendable>: KeyedRuntime<
  State, Event, Request, Request
>
{
  private let requests: @Sendable (State) -> TreeSet<Request>
  private let effects: @Sendable (Request) -> Effect<Event>
  private var last: TreeSet<Request> = []

  init(
    id: FeedbackID, core: SystemCore<State, Event>,
    requests: @escaping @Sendable (State) -> TreeSet<Request>, effects: @escaping @Sendable (Request) -> Effect<Event>
  ) {
    self.requests = requests
    self.effects = effects
    super.init(id: id, core: core)
  }

  override func onState(_ state: State) {
    let current = requests(state)
    // No equality test first: `subtracting` returns at once for the same
    // storage, and for two sets that differ an equality test would walk the
    // changed paths once more.
    for request in last.subtracting(current) { table.cancel(request) }
    for request in current.subtracting(last) {
      table.start(request, value: request) { _ in effects(request) }
    }
    last = current
  }
}

/// `react(requests:)` over a `TreeDictionary`: one effect per id; a kept id's
/// new value is handed to its running effect.
///
/// Ids removed and added are found structurally. `TreeDictionary` has no
/// structural operation that compares values and tells where they differ
/// (`==` compares them structurally but answers only yes or no; `merge` walks
/// every entry). So the runtime checks structurally whether the state
/// changed anything beyond the ids it added and removed, by applying those
/// to the last requests and comparing; only if a kept id's value changed does
/// it look at every entry, O(n).
final class KeyedTreeValueRuntime<
  State: Sendable, Event: Sendable, ID: Hashable & Sendable, Value: Equatable & Sendable
>: KeyedRuntime<State, Event, ID, Value> {
  private let requests: @Sendable (State) -> TreeDictionary<ID, Value>
  private let effects: @Sendable (ID, Value, AsyncStream<Value>) -> Effect<Event>
  private var last: TreeDictionary<ID, Value> = [:]

  init(
    id: FeedbackID, core: SystemCore<State, Event>,
    requests: @escaping @Sendable (State) -> TreeDictionary<ID, Value>,
    effects: @escaping @Sendable (ID, Value, AsyncStream<Value>) -> Effect<Event>
  ) {
    self.requests = requests
    self.effects = effects
    super.init(id: id, core: core)
  }

  override func onState(_ state: State) {
    let current = requests(state)
    let removed = last.keys.subtracting(current.keys)
    let added = current.keys.subtracting(last.keys)
    for id in removed { table.cancel(id) }
    if keptValuesChanged(current, removed: removed, added: added) {
      for (id, value) in current {
        if let previous = last[id], previous != value { table.update(id, to: value) }
      }
    }
    for id in added {
      let value = current[id]!
      table.start(id, value: value) { updates in effects(id, value, updates) }
    }
    last = current
  }

  /// Whether a kept id has a new value: the last requests with the removed
  /// ids taken out and the added ones put in share all but those paths with
  /// `last`, as `current` does unless a value changed elsewhere, so the
  /// comparison walks only the changed paths, O(changes · log n).
  private func keptValuesChanged(
    _ current: TreeDictionary<ID, Value>,
    removed: TreeDictionary<ID, Value>.Keys,
    added: TreeDictionary<ID, Value>.Keys
  ) -> Bool {
    var expected = last
    for id in removed { expected[id] = nil }
    for id in added { expected[id] = current[id] }
    return expected != current
  }
}
