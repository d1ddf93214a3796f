extension Feedback {
  /// ReactiveFeedback's `Feedback(deriving:effects:)`: `transform` turns the
  /// stream of states into a stream of values; each value triggers
  /// `effects`, by default replacing the running effect (`flatMap(.latest)`).
  ///
  /// The transform runs in a task of its own, so its values reach the loop
  /// asynchronously; prefer ``query(_:strategy:name:fileID:line:effects:)``
  /// when a function of each state is enough.
  ///
  /// ```swift
  /// Feedback<Player.State, Player.Event>.deriving({ states in
  ///   states.map(\.position).filter { $0 > introStart }.prefix(1)
  /// }) { _ in .send(.introStarted) }
  /// ```
  public static func deriving<Derived: Sendable, Values: AsyncSequence & Sendable>(
    _ transform: @escaping @Sendable (AsyncStream<State>) -> Values,
    strategy: ExecutionStrategy = .cancelPrevious,
    name: String? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    effects: @escaping @Sendable (Derived) -> Effect<Event>
  ) -> Feedback where Values.Element == Derived {
    Feedback(name: name, kind: "deriving", fileID: fileID, line: line) { id, core in
      DerivingRuntime(
        id: id, core: core, strategy: strategy,
        derive: { states, emit in
          for try await value in transform(states) { emit(value) }
        },
        effects: effects)
    }
  }
}
