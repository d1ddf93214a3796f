extension Feedback {
  /// A query feedback (G4): `query` is computed from each state; when it
  /// changes, the running effect is cancelled and `effects` starts a new
  /// one for the non-`nil` query; `nil` means "no effect" and cancels the
  /// running one. An equal query restarts nothing and costs one comparison.
  ///
  /// The events of a cancelled effect that were not reduced yet never reach
  /// the reducer, whether it sent them before or after the cancellation.
  /// ReactiveFeedback spells this feedback `lensing` and `skippingRepeated`,
  /// RxFeedback `react(request:)`: the `FeedbackLoopCompatibility` product
  /// keeps those names for code moved from them.
  ///
  /// ```swift
  /// // The ReactiveFeedback talk's search: load the page whose URL the state asks for.
  /// Feedback<Search.State, Search.Event>.query(\.nextPageURL) { url in
  ///   .task { try await .success(store.search(url)) } catch: { .failure($0) }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - query: the part of the state the effect depends on; `nil` for none.
  ///   - strategy: what a changed query does to running effects (G7).
  ///   - name: the name monitors show; by default `query@File.swift:line`.
  ///   - fileID: where the feedback is made, for its default name.
  ///   - line: where the feedback is made, for its default name.
  ///   - effects: the effect for a query.
  @inlinable
  public static func query<Query: Equatable & Sendable>(
    _ query: @escaping @Sendable (State) -> Query?,
    strategy: ExecutionStrategy = .cancelPrevious,
    name: String? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    effects: @escaping @Sendable (Query) -> Effect<Event>
  ) -> Feedback {
    Feedback(name: name, kind: "query", fileID: fileID, line: line) { id, core in
      EffectfulRuntime.query(id: id, core: core, strategy: strategy, query: query, effects: effects)
    }
  }
}
