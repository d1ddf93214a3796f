extension Feedback {
  /// A requests feedback (G6; RxFeedback's `react(requests:effects:)`): each
  /// state yields a set of requests; a new request starts its effect, a
  /// removed one cancels it, a kept one goes on untouched. Effects of
  /// different requests run side by side. An effect that finished on its own
  /// is not restarted while its request stays in the set.
  ///
  /// ```swift
  /// // Download every file the state lists, each once, concurrently.
  /// Feedback<Downloads.State, Downloads.Event>.requests(\.queued) { file in
  ///   .task { try await .downloaded(file, client.fetch(file)) } catch: { .failed(file, $0) }
  /// }
  /// ```
  ///
  /// Each state costs a comparison of its set with the last one, O(n) for
  /// sets that differ, and since the feedback keeps the last set, the
  /// reducer's next insertion or removal copies the whole set (copy on
  /// write): for n requests changed one at a time, every event costs O(n).
  /// For large sets that change a few requests per event, keep the requests
  /// in a ``TrackedSet`` and use
  /// ``requests(_:name:fileID:line:effects:)-((State)->TrackedSet<Request>,_,_,_,_)``
  /// over it: the feedback reads the requests changed from the set's log, and
  /// an event costs O(1) per changed request, whatever the set's size.
  ///
  /// `requests` is the one name of this kind. The overloads over a
  /// `TrackedSet`, a `TreeSet` and, by id, a `Dictionary`, a
  /// `TrackedDictionary` and a `TreeDictionary` are the same feedback with
  /// the same table of effects; they are a choice of collection, whose costs
  /// <doc:ChoosingAFeedback#Many-requests> compares in a table.
  @inlinable
  public static func requests<Request: Hashable & Sendable>(
    _ requests: @escaping @Sendable (State) -> Set<Request>,
    name: String? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    effects: @escaping @Sendable (Request) -> Effect<Event>
  ) -> Feedback {
    Feedback(name: name, kind: "requests", fileID: fileID, line: line) { id, core in
      KeyedRuntime.set(id: id, core: core, requests: requests, effects: effects)
    }
  }

  /// A keyed feedback by id (G6): each state yields requests by id. A new id
  /// starts its effect with its value; a removed id cancels it; a kept id
  /// whose value changed hands the new value to the running effect, through
  /// `updates` (which keeps the newest value only), instead of restarting it.
  ///
  /// ```swift
  /// // One upload per id; a new priority reaches the running upload.
  /// Feedback<Uploads.State, Uploads.Event>.requests(\.priorityByID) { id, priority, updates in
  ///   .run { send in
  ///     try await uploader.upload(id, priority: priority, priorityChanges: updates)
  ///     send(.uploaded(id))
  ///   }
  /// }
  /// ```
  ///
  /// Like the `Set` form, each state costs O(n) for n ids when they changed;
  /// for many ids that change a few at a time, keep them in a
  /// ``TrackedDictionary`` and use
  /// ``requests(_:name:fileID:line:effects:)-((State)->TrackedDictionary<ID,Value>,_,_,_,_)``.
  @inlinable
  public static func requests<ID: Hashable & Sendable, Value: Equatable & Sendable>(
    _ requests: @escaping @Sendable (State) -> [ID: Value],
    name: String? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    effects: @escaping @Sendable (_ id: ID, _ initial: Value, _ updates: AsyncStream<Value>) -> Effect<Event>
  ) -> Feedback {
    Feedback(name: name, kind: "requests", fileID: fileID, line: line) { id, core in
      KeyedRuntime.dictionary(id: id, core: core, requests: requests, effects: effects)
    }
  }
}
