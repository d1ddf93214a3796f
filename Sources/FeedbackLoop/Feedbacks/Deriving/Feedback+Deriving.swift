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

  /// An event-triggered feedback: after each reduction, `effects` receives
  /// the event and the state it produced. For logging, analytics and routing,
  /// which react to what happened rather than to a state, with no
  /// placeholder state. Return `.none` for events of no interest: it leaves
  /// running effects alone.
  ///
  /// ```swift
  /// Feedback<Checkout.State, Checkout.Event>.onEvent { event, state in
  ///   guard case .paid = event else { return .none }
  ///   return .run { _ in await analytics.track("purchase", total: state.total) }
  /// }
  /// ```
  @inlinable
  public static func onEvent(
    strategy: ExecutionStrategy = .cancelPrevious,
    name: String? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    effects: @escaping @Sendable (Event, State) -> Effect<Event>
  ) -> Feedback {
    Feedback(name: name, kind: "onEvent", fileID: fileID, line: line) { id, core in
      EffectfulRuntime.event(id: id, core: core, strategy: strategy, effects: effects)
    }
  }
}
