import HashTreeCollections

// `requests(_:)` over swift-collections' persistent collections. Both
// overloads are disfavoured so that a closure returning an array or
// dictionary literal (`{ _ in [1, 2] }`) still picks `Set` or `Dictionary`,
// as it did before these overloads existed, instead of becoming ambiguous;
// a closure or key path typed `TreeSet` or `TreeDictionary` has only these.
extension Feedback {
  /// A keyed feedback over a persistent set (G6), for many requests that
  /// change a few at a time: each state yields a `TreeSet` of requests; a new
  /// request starts its effect, a removed one cancels it, a kept one goes on
  /// untouched. Effects of different requests run side by side. An effect
  /// that finished on its own is not restarted while its request stays.
  ///
  /// The semantics are those of the `Set` form; the cost is not. A `TreeSet`
  /// is a hash tree whose copies share their nodes: the feedback keeps the
  /// last set without making the reducer's next change copy it all (only the
  /// path to the changed request is copied), and it finds the requests added
  /// and removed with `symmetricDifference`, which skips every subtree the
  /// two sets share. A state that changed k of n requests costs O(k log n), where a
  /// `Set` costs O(n).
  ///
  /// ```swift
  /// import HashTreeCollections
  ///
  /// // Thousands of subscriptions, one added or dropped per event.
  /// struct State: Sendable, Equatable {
  ///   var channels: TreeSet<Channel.ID> = []
  /// }
  ///
  /// Feedback<State, Event>.requests(\.channels) { channel in
  ///   .sequence(hub.messages(on: channel).map { .received($0, on: channel) })
  /// }
  /// ```
  @_disfavoredOverload
  @inlinable
  public static func requests<Request: Hashable & Sendable>(
    _ requests: @escaping @Sendable (State) -> TreeSet<Request>,
    name: String? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    effects: @escaping @Sendable (Request) -> Effect<Event>
  ) -> Feedback {
    Feedback(name: name, kind: "requests", fileID: fileID, line: line) { id, core in
      KeyedRuntime.treeSet(id: id, core: core, requests: requests, effects: effects)
    }
  }

  /// A keyed feedback by id over a persistent dictionary (G6): each state
  /// yields a `TreeDictionary` of requests by id. A new id starts its effect
  /// with its value; a removed id cancels it; a kept id whose value changed
  /// hands the new value to the running effect, through `updates` (which
  /// keeps the newest value only), instead of restarting it. An effect that
  /// finished on its own is not restarted while its id stays.
  ///
  /// As with the `TreeSet` form, ids added and removed are found by
  /// structural set operations, and a state that added or removed k of n ids
  /// costs O(k log n). A state in which a kept id's value changed costs O(n):
  /// `TreeDictionary` can tell structurally that some value changed, not
  /// which one, so the feedback then compares every entry.
  ///
  /// ```swift
  /// import HashTreeCollections
  ///
  /// // One upload per id among many; a new priority reaches the running upload.
  /// struct State: Sendable, Equatable {
  ///   var priorityByID: TreeDictionary<Upload.ID, Int> = [:]
  /// }
  ///
  /// Feedback<State, Event>.requests(\.priorityByID) { id, priority, updates in
  ///   .run { send in
  ///     try await uploader.upload(id, priority: priority, priorityChanges: updates)
  ///     send(.uploaded(id))
  ///   }
  /// }
  /// ```
  @_disfavoredOverload
  @inlinable
  public static func requests<ID: Hashable & Sendable, Value: Equatable & Sendable>(
    _ requests: @escaping @Sendable (State) -> TreeDictionary<ID, Value>,
    name: String? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    effects: @escaping @Sendable (_ id: ID, _ initial: Value, _ updates: AsyncStream<Value>) -> Effect<Event>
  ) -> Feedback {
    Feedback(name: name, kind: "requests", fileID: fileID, line: line) { id, core in
      KeyedRuntime.treeDictionary(id: id, core: core, requests: requests, effects: effects)
    }
  }
}
