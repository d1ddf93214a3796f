extension Feedback {
  /// A keyed feedback by id over a ``TrackedDictionary`` (G6), for many ids
  /// that change a few at a time: each state yields requests by id. A new id
  /// starts its effect with its value; a removed id cancels it; a kept id
  /// whose value changed hands the new value to the running effect, through
  /// `updates` (which keeps the newest value only), instead of restarting
  /// it. An effect that finished on its own is not restarted while its id
  /// stays.
  ///
  /// The semantics are those of the `Dictionary` form; the cost is not. The
  /// feedback reads from the dictionary's log the ids written since the last
  /// state, and keeps no copy of the dictionary, so the reducer changes it
  /// in place: a state that wrote k ids costs O(k), whatever the number of
  /// ids, a changed value included (a `Dictionary` costs O(n); a
  /// `TreeDictionary` O(k log n), and O(n) when a value changed).
  ///
  /// ```swift
  /// struct State: Sendable, Equatable {
  ///   var priorityByID: TrackedDictionary<Upload.ID, Int> = [:]
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
    _ requests: @escaping @Sendable (State) -> TrackedDictionary<ID, Value>,
    name: String? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    effects: @escaping @Sendable (_ id: ID, _ initial: Value, _ updates: AsyncStream<Value>) -> Effect<Event>
  ) -> Feedback {
    Feedback(name: name, kind: "requests", fileID: fileID, line: line) { id, core in
      KeyedRuntime.trackedDictionary(id: id, core: core, requests: requests, effects: effects)
    }
  }
}
