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
  /// lift into a parent like any feature: its transitions are the reducer,
  /// and `feedbacks` its feedbacks.
  ///
  /// A feature runs in its parent's system, so what the declaration says
  /// about that system becomes the parent's business:
  ///
  /// - ``unmatchedEvents(_:)`` is kept: an event no transition matches keeps
  ///   the state and is reported as the policy says, except that
  ///   `.report` (and ``UnmatchedEventPolicy/failInDebugBuilds``
  ///   in release builds) logs through the library's default logger
  ///   (`SystemEnvironment.defaultLogger`): a reducer cannot reach the
  ///   parent's logger, nor its monitor.
  /// - ``effectExecutor(_:)`` and ``Transitions/isolation(_:)`` cannot be kept: the
  ///   parent's isolation and executor rule its features. Lifting a
  ///   declaration that chose either logs one warning, naming the feature,
  ///   in `SystemEnvironment.defaultLogger`; choose them on the parent instead.
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
    feature(name: name, feedbacks: liftable, loggingTo: SystemEnvironment())
  }

  /// ``feature(name:feedbacks:)``, logging through `environment`'s logger
  /// (the library's default one outside tests).
  func feature(
    name: String, feedbacks liftable: [FeedbackLoop.LiftableFeedback<State, Event>],
    loggingTo environment: SystemEnvironment
  ) -> FeedbackLoop.Feature<State, Event> {
    guard feedbacks.feedbacks.isEmpty else {
      fatalError(
        "\(name): a declared system's Feedbacks cannot be lifted yet; pass them as LiftableFeedback to feature(name:feedbacks:)"
      )
    }
    var dropped: [String] = []
    if executor != nil { dropped.append("effectExecutor(_:) on the system") }
    if transitions.isolation != nil { dropped.append("Transitions.isolation(_:)") }
    if !dropped.isEmpty {
      environment.logger.warning(
        """
        the declared system lifted as the feature "\(name)" chose \(dropped.joined(separator: " and ")), \
        which a feature cannot keep: it runs in its parent's system, whose isolation and executor rule it. \
        Choose them on the parent (see "Composing features").
        """)
    }
    let table = TransitionTable(transitions, unmatched: unmatchedEvents, environment: environment)
    let lock = Lock()
    let reducer = FeedbackLoop.Reducer<State, Event> { state, event in
      lock.withLock { table.reduce(&state, event) }
    }
    return FeedbackLoop.Feature(name: name, reducer: reducer, feedbacks: liftable)
  }
}
