extension Feedback {
  /// A keyed feedback over a ``TrackedSet`` (G6), for many requests that
  /// change a few at a time: each state yields a `TrackedSet` of requests; a
  /// new request starts its effect, a removed one cancels it, a kept one goes
  /// on untouched. Effects of different requests run side by side. An effect
  /// that finished on its own is not restarted while its request stays.
  ///
  /// The semantics are those of the `Set` form; the cost is not. The feedback
  /// reads from the set's log the requests changed since the last state, and
  /// keeps no copy of the set, so the reducer changes it in place: a state
  /// that changed k requests costs O(k), whatever the number of requests
  /// (a `Set` costs O(n), a `TreeSet` O(k log n)). ``TrackedSet`` says when
  /// the feedback compares the whole set instead (once, O(n)).
  ///
  /// ```swift
  /// // Thousands of subscriptions, one added or dropped per event.
  /// struct State: Sendable, Equatable {
  ///   var channels: TrackedSet<Channel.ID> = []
  /// }
  ///
  /// Feedback<State, Event>.requests(\.channels) { channel in
  ///   .sequence(hub.messages(on: channel).map { .received($0, on: channel) })
  /// }
  /// ```
  @_disfavoredOverload
  @inlinable
  public static func requests<Request: Hashable & Sendable>(
    _ requests: @escaping @Sendable (State) -> TrackedSet<Request>,
    name: String? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    effects: @escaping @Sendable (Request) -> Effect<Event>
  ) -> Feedback {
    Feedback(name: name, kind: "requests", fileID: fileID, line: line) { id, core in
      KeyedRuntime.trackedSet(id: id, core: core, requests: requests, effects: effects)
    }
  }
}
