extension Feedback {
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
