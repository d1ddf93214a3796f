// The Feedbacks library's forms of `On`, for systems whose state is `any StateProtocol`: targets
// are state types, named after their type in the diagrams.

extension On where State == any FeedbackLoopDeclarative.StateProtocol {
  /// On an event of type `event`, go to `target`, evaluated when the
  /// transition runs (so it may read the state being left).
  ///
  /// ```swift
  /// From(VolumeState.self) { state in
  ///   On(IncreaseEvent.self, transitionTo: VolumeState(value: state.value + 1))
  /// }
  /// ```
  @inlinable
  public init<EventType, Target: FeedbackLoopDeclarative.StateProtocol>(
    _ event: EventType.Type,
    transitionTo target: @autoclosure @escaping @Sendable () -> Target
  ) {
    self.init(
      typePattern(event) as Pattern<Event, Void>, targetName: String(describing: Target.self),
      targetCheck: nil, make: { target() })
  }

  /// On an event of type `event`, go to the state of type `target` that
  /// `make` builds from the event.
  ///
  /// ```swift
  /// On(DataIsLoaded.self, transitionTo: LoadedState.self) { event in
  ///   LoadedState(page: state.page, data: event.data)
  /// }
  /// ```
  @inlinable
  public init<EventType: Sendable, Target: FeedbackLoopDeclarative.StateProtocol>(
    _ event: EventType.Type,
    transitionTo target: Target.Type,
    _ make: @escaping @Sendable (EventType) -> Target
  ) {
    self.init(
      typePattern(event) as Pattern<Event, EventType>, targetName: String(describing: target),
      targetCheck: nil, make: make)
  }

  /// On an event of type `event`, go to the state of type `target` that
  /// `make` builds.
  ///
  /// ```swift
  /// On(RefreshEvent.self, transitionTo: LoadingState.self) {
  ///   LoadingState(page: state.page)
  /// }
  /// ```
  @inlinable
  public init<EventType, Target: FeedbackLoopDeclarative.StateProtocol>(
    _ event: EventType.Type,
    transitionTo target: Target.Type,
    _ make: @escaping @Sendable () -> Target
  ) {
    self.init(
      typePattern(event) as Pattern<Event, Void>, targetName: String(describing: target),
      targetCheck: nil, make: make)
  }

  /// On any event, go to the state of type `target` that `make` builds from
  /// the event.
  ///
  /// ```swift
  /// On(AnyEvent.self, transitionTo: ErrorState.self) { event in ErrorState(cause: event) }
  /// ```
  @inlinable
  public init<Target: FeedbackLoopDeclarative.StateProtocol>(
    _ event: AnyEvent.Type,
    transitionTo target: Target.Type,
    _ make: @escaping @Sendable (Event) -> Target
  ) {
    self.init(
      Pattern<Event, Event>.anyNamed("AnyEvent"), targetName: String(describing: target),
      targetCheck: nil, make: make)
  }
}
