import FeedbackLoop

extension Transitions {
  /// The transitions as a `Reducer`, to combine with others
  /// and lift into a parent: an event no transition matches keeps the state.
  ///
  /// ```swift
  /// let volume = Volume.transitions.reducer.lifted(state: \App.State.volume, event: App.toVolume)
  /// ```
  ///
  /// The transitions are compiled once, into one table; a table belongs to
  /// one loop at a time, so the reducer takes a lock around it (uncontended
  /// unless two systems share the reducer).
  public var reducer: FeedbackLoop.Reducer<State, Event> {
    let table = TransitionTable(self, unmatched: .keepState, environment: nil)
    let lock = Lock()
    return FeedbackLoop.Reducer { state, event in
      lock.withLock { table.reduce(&state, event) }
    }
  }
}

extension DeclarativeSystem {
  /// The declared system as a `Feature` named `name`, to
  /// lift into a parent like any feature: its transitions are the reducer
  /// (an unmatched event keeps the state), and `feedbacks` its feedbacks.
  ///
  /// The declaration's own `Feedbacks` are made for its state only and
  /// cannot be lifted yet: a declaration that has some traps with a message
  /// saying so; write them as `LiftableFeedback` here instead.
  ///
  /// ```swift
  /// let volume = DeclarativeSystem<Volume.State, Volume.Event> {
  ///   InitialState(Volume.State())
  ///   Transitions { From(.any) { On(.up) { $0.level += 1 } } }
  /// }
  /// let app = volume.feature(name: "volume").lifted(state: \App.State.volume, event: App.toVolume)
  /// ```
  public func feature(
    name: String, feedbacks liftable: [FeedbackLoop.LiftableFeedback<State, Event>] = []
  ) -> FeedbackLoop.Feature<State, Event> {
    guard feedbacks.feedbacks.isEmpty else {
      fatalError(
        "\(name): a declared system's Feedbacks cannot be lifted yet; pass them as LiftableFeedback to feature(name:feedbacks:)"
      )
    }
    return FeedbackLoop.Feature(name: name, reducer: transitions.reducer, feedbacks: liftable)
  }
}
