import FeedbackLoop

extension FeedbackLoop.System {
  /// Declares a system and starts it on the core runtime: the Feedbacks library's
  /// `System { InitialState { ... } Feedbacks { ... } Transitions { ... } }`.
  ///
  /// Name the state and event types when they are not the Feedbacks library's
  /// `any StateProtocol` and `any EventProtocol`:
  ///
  /// ```swift
  /// let loader = System<Phase, Action> {
  ///   InitialState { .loading(page: 1) }
  ///   Feedbacks { ... }
  ///   Transitions { ... }
  /// }
  /// loader.send(.refresh)
  /// ```
  ///
  /// - Parameters:
  ///   - isolation: where the reducer and feedbacks run; by default what the
  ///     transitions say (``Transitions/isolation(_:)``), else `.sendingThread`.
  ///   - environment: the clock, executor, logger and event buffer.
  ///   - monitor: receives every reduction and effect.
  ///   - unmatchedEvents: what an event no transition matches does; by
  ///     default what the declaration says, else keep the state.
  ///   - content: the initial state, feedbacks and transitions.
  ///   - caller: the caller's isolation, filled in by the compiler: a
  ///     main-actor system declared on the main actor delivers its initial
  ///     state before `init` returns, as the core's initializers do.
  @inlinable
  public convenience init(
    isolation: SystemIsolation? = nil,
    environment: SystemEnvironment = SystemEnvironment(),
    monitor: SystemMonitor<State, Event>? = nil,
    unmatchedEvents: UnmatchedEventPolicy<State, Event>? = nil,
    caller: isolated (any Actor)? = #isolation,
    @SystemBuilder<State, Event> _ content: () -> DeclarativeSystem<State, Event>
  ) {
    var declaration = content()
    if let unmatchedEvents { declaration = declaration.unmatchedEvents(unmatchedEvents) }
    self.init(declaration, isolation: isolation, environment: environment, monitor: monitor, caller: caller)
  }

  /// Starts a declared system on the core runtime: what
  /// ``DeclarativeSystem/start(isolation:environment:monitor:caller:)``
  /// and `System { ... }` do, the one place that does it.
  @inlinable
  convenience init(
    _ declaration: DeclarativeSystem<State, Event>,
    isolation: SystemIsolation? = nil,
    environment: SystemEnvironment = SystemEnvironment(),
    monitor: SystemMonitor<State, Event>? = nil,
    caller: isolated (any Actor)? = #isolation
  ) {
    let parts = declaration.coreParts(isolation: isolation, environment: environment)
    self.init(
      initial: declaration.initialState,
      reduce: parts.reduce,
      feedbacks: parts.feedbacks,
      isolation: parts.isolation,
      environment: parts.environment,
      monitor: monitor,
      caller: caller)
  }
}
