extension Feedback {
  /// A query feedback over one element of a ``TrackedArray`` (G4): the
  /// element at `index` of the array at `elements` is the query. A changed
  /// element triggers the effect; an index past the end is a `nil` query,
  /// which cancels it.
  ///
  /// The semantics are those of ``query(_:strategy:name:fileID:line:effects:)``
  /// with `{ $0[keyPath: elements][index] }` as the query; the cost is not.
  /// The feedbacks of one system watching the same array share one state
  /// handler, which reads from the array's log the positions changed since
  /// the last state and asks only their feedbacks: with a hundred feedbacks
  /// watching a hundred elements, an event that changes one element costs
  /// one comparison, not a hundred.
  ///
  /// One thing differs from separate query feedbacks: order. The loop hands
  /// each state to the feedbacks in the order given; the shared handler takes
  /// the place of the first feedback on the array, and asks the others there,
  /// in the order of the positions that changed. Effects that answer at once
  /// (`.send`) therefore queue their events in that order.
  ///
  /// ```swift
  /// struct State: Sendable, Equatable {
  ///   var counters = TrackedArray(repeating: 0, count: 100)
  /// }
  ///
  /// // Feedback i saves counter i when it changes.
  /// let feedbacks = (0..<100).map { index in
  ///   Feedback<State, Event>.query(\.counters, at: index) { count in
  ///     .task { await store.save(count, at: index); return .saved(index) }
  ///   }
  /// }
  /// ```
  @inlinable
  public static func query<Element: Equatable & Sendable>(
    _ elements: KeyPath<State, TrackedArray<Element>> & Sendable,
    at index: Int,
    strategy: ExecutionStrategy = .cancelPrevious,
    name: String? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    effects: @escaping @Sendable (Element) -> Effect<Event>
  ) -> Feedback {
    // Not `precondition`, whose message an optimized build drops.
    if index < 0 { fatalError("FeedbackLoop: a TrackedArray's positions start at 0, not \(index)") }
    return Feedback(name: name, kind: "query", fileID: fileID, line: line) { id, core in
      let runtime = QueryRuntime(
        id: id, core: core, strategy: strategy, query: { $0[keyPath: elements].element(at: index) },
        effects: effects)
      ElementWatchers.shared(for: elements, in: core).add(runtime, at: index)
      return runtime
    }
  }
}
