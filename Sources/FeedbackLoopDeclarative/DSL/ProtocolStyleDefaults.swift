import FeedbackLoop

// When a declaration names no state and event types, they are the Feedbacks library's
// `any StateProtocol` and `any EventProtocol`. Swift infers a result builder's types from its
// context, not from its body, so each entry point that the Feedbacks library writes
// without types has an overload here that fixes them; an explicit type
// (`System<Phase, Action> { ... }`) selects the generic one.

extension FeedbackLoop.System
where State == any FeedbackLoopDeclarative.StateProtocol, Event == any FeedbackLoopDeclarative.EventProtocol {
  /// Declares a system of the Feedbacks library's protocol states and events, and starts it.
  ///
  /// ```swift
  /// let system = System {
  ///   InitialState { VolumeState(value: 10) }
  ///   Transitions {
  ///     From(VolumeState.self) { state in
  ///       On(IncreaseEvent.self, transitionTo: VolumeState(value: state.value + 1))
  ///     }
  ///   }
  /// }
  /// ```
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
}

extension DeclarativeSystem
where State == any FeedbackLoopDeclarative.StateProtocol, Event == any FeedbackLoopDeclarative.EventProtocol {
  /// Declares a system of the Feedbacks library's protocol states and events.
  ///
  /// ```swift
  /// let volume = DeclarativeSystem {
  ///   InitialState { VolumeState(value: 10) }
  ///   Transitions { ... }
  /// }
  /// ```
  public init(@SystemBuilder<State, Event> _ content: () -> DeclarativeSystem<State, Event>) {
    self = content()
  }
}

extension Transitions
where State == any FeedbackLoopDeclarative.StateProtocol, Event == any FeedbackLoopDeclarative.EventProtocol {
  /// Transitions between the Feedbacks library's protocol states.
  ///
  /// ```swift
  /// let transitions = Transitions {
  ///   loadingTransitions
  ///   loadedTransitions
  /// }
  /// ```
  public init(@TransitionsBuilder<State, Event> _ content: () -> [From<State, Event>]) {
    self.init(content())
  }
}

extension Feedbacks
where State == any FeedbackLoopDeclarative.StateProtocol, Event == any FeedbackLoopDeclarative.EventProtocol {
  /// Feedbacks on the Feedbacks library's protocol states.
  ///
  /// ```swift
  /// let feedbacks = Feedbacks {
  ///   Feedback.on(LoadingState.self) { state in ... }
  /// }
  /// ```
  public init(@FeedbacksBuilder<State, Event> _ content: () -> [DeclaredFeedback<State, Event>]) {
    feedbacks = content()
  }
}

extension From
where State == any FeedbackLoopDeclarative.StateProtocol, Event == any FeedbackLoopDeclarative.EventProtocol {
  /// A block for the Feedbacks library's protocol states, defined apart.
  ///
  /// ```swift
  /// let loadingTransitions = From(LoadingState.self) { state in
  ///   On(LoadingHasFailed.self, transitionTo: ErrorState())
  /// }
  /// ```
  @_disfavoredOverload  // `AnyState.self` takes the wildcard's form, whose block gets the state
  @inlinable
  public init<StateType: Sendable>(
    _ type: StateType.Type,
    @OnBuilder<State, Event> _ transitions: @escaping @Sendable (Matched<StateType>) -> [On<State, Event>]
  ) {
    self.init(typePattern(type) as Pattern<State, StateType>, transitions)
  }

  /// A block for the Feedbacks library's protocol states that need not read the state,
  /// defined apart.
  ///
  /// ```swift
  /// let errorTransitions = From(ErrorState.self) {
  ///   On(AnyEvent.self, transitionTo: LoadingState(page: 1))
  /// }
  /// ```
  @inlinable
  public init<StateType>(
    _ type: StateType.Type,
    @OnBuilder<State, Event> _ transitions: @escaping @Sendable () -> [On<State, Event>]
  ) {
    self.init(typePattern(type) as Pattern<State, Void>, transitions)
  }

  /// A block for every state of the Feedbacks library's protocol states, defined apart.
  ///
  /// ```swift
  /// let refresh = From(AnyState.self) { _ in
  ///   On(RefreshEvent.self, transitionTo: LoadingState(page: 1))
  /// }
  /// ```
  @inlinable
  public init(
    _ type: AnyState.Type,
    @OnBuilder<State, Event> _ transitions: @escaping @Sendable (Matched<State>) -> [On<State, Event>]
  ) {
    self.init(Pattern<State, State>.anyNamed("AnyState"), transitions)
  }
}
