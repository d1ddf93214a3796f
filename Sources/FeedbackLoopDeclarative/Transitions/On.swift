/// A transition: on an event that matches, the state a ``From`` block
/// matched becomes a new state.
///
/// `On` is written inside a ``From`` block. It names the event (a type, an
/// enum case, a value, or ``AnyEvent``) and the state to go to: a value, a
/// state computed from the event, or the Feedbacks library's `transitionTo:` forms.
///
/// ```swift
/// From(LoadingState.self) { state in
///   On(DataIsLoaded.self, transitionTo: LoadedState.self) { event in
///     LoadedState(page: state.page, data: event.data)
///   }
///   On(LoadingHasFailed.self, transitionTo: ErrorState())
/// }
/// ```
///
/// The target is declared, not only computed, so that the diagrams can draw
/// the transition: a state type, a constant state, or a ``Pattern`` such as
/// `.case("loaded")`. In debug builds, a computed target is checked against
/// its declaration, so the diagrams do not lie.
public struct On<State: Sendable, Event: Sendable>: Sendable {
  /// The name of the event, as the diagrams show it.
  public let eventName: String
  /// Whether the transition matches every event (``AnyEvent``).
  public let matchesAnyEvent: Bool
  /// The name of the target state, as the diagrams show it.
  public let targetName: String
  @usableFromInline let apply: @Sendable (Event) -> State?
  @usableFromInline let targetCheck: (@Sendable (State) -> Bool)?
  @usableFromInline var disabled: [@Sendable () -> Bool] = []

  @inlinable
  init(
    eventName: String,
    matchesAnyEvent: Bool,
    targetName: String,
    targetCheck: (@Sendable (State) -> Bool)?,
    apply: @escaping @Sendable (Event) -> State?
  ) {
    self.eventName = eventName
    self.matchesAnyEvent = matchesAnyEvent
    self.targetName = targetName
    self.targetCheck = targetCheck
    self.apply = apply
  }

  @inlinable
  init<Value>(
    _ event: Pattern<Event, Value>,
    targetName: String,
    targetCheck: (@Sendable (State) -> Bool)?,
    make: @escaping @Sendable (Value) -> State
  ) {
    self.init(
      eventName: event.name, matchesAnyEvent: event.isWildcard, targetName: targetName,
      targetCheck: targetCheck,
      apply: { [extract = event.extractor] in extract($0).map(make) })
  }

  /// A transition whose target does not read the event: the event is only
  /// matched, and not at all for a wildcard, so that the reducer calls
  /// `make` directly.
  @inlinable
  init<Value>(
    _ event: Pattern<Event, Value>,
    targetName: String,
    targetCheck: (@Sendable (State) -> Bool)?,
    make: @escaping @Sendable () -> State
  ) {
    let apply: @Sendable (Event) -> State?
    if event.isWildcard {
      apply = { _ in make() }
    } else {
      let extract = event.extractor
      apply = { extract($0) == nil ? nil : make() }
    }
    self.init(
      eventName: event.name, matchesAnyEvent: event.isWildcard, targetName: targetName,
      targetCheck: targetCheck, apply: apply)
  }

  // MARK: - Events matched by a pattern

  /// On an event that `event` matches, go to the constant state `target`.
  ///
  /// ```swift
  /// On(.case("failed", \Action.failure), transitionTo: Phase.failed)
  /// ```
  @inlinable
  public init<Value>(_ event: Pattern<Event, Value>, transitionTo target: State) {
    self.init(event, targetName: stateName(of: target), targetCheck: nil, make: { _ in target })
  }

  /// On an event that `event` matches, go to the state `make` computes from
  /// the event's extracted value; `target` names it for the diagrams.
  ///
  /// ```swift
  /// On(.case("dataLoaded", \Action.dataLoaded), transitionTo: .case("loaded")) { data in
  ///   .loaded(page: page(), data: data)
  /// }
  /// ```
  @inlinable
  public init<Value, TargetValue>(
    _ event: Pattern<Event, Value>,
    transitionTo target: Pattern<State, TargetValue>,
    _ make: @escaping @Sendable (Value) -> State
  ) {
    self.init(event, targetName: target.name, targetCheck: target.matches, make: make)
  }

  /// On an event that `event` matches, go to the state `make` computes;
  /// `target` names it for the diagrams.
  ///
  /// ```swift
  /// On(.value(Action.refresh), transitionTo: .case("loading")) { .loading(page: page()) }
  /// ```
  @inlinable
  public init<Value, TargetValue>(
    _ event: Pattern<Event, Value>,
    transitionTo target: Pattern<State, TargetValue>,
    _ make: @escaping @Sendable () -> State
  ) {
    self.init(event, targetName: target.name, targetCheck: target.matches, make: make)
  }

  // MARK: - Events matched by type

  /// On an event of type `event`, go to the constant state `target`.
  ///
  /// ```swift
  /// On(ResetEvent.self, transitionTo: Phase.idle)
  /// ```
  @inlinable
  public init<EventType>(_ event: EventType.Type, transitionTo target: State) {
    self.init(typePattern(event), transitionTo: target)
  }

  /// On an event of type `event`, go to the state `make` computes from it;
  /// `target` names it for the diagrams.
  ///
  /// ```swift
  /// On(PageLoaded.self, transitionTo: .case("loaded")) { event in .loaded(event.items) }
  /// ```
  @_disfavoredOverload  // `AnyEvent.self` takes the wildcard's form, whose closure gets the event
  @inlinable
  public init<EventType: Sendable, TargetValue>(
    _ event: EventType.Type,
    transitionTo target: Pattern<State, TargetValue>,
    _ make: @escaping @Sendable (EventType) -> State
  ) {
    self.init(typePattern(event) as Pattern<Event, EventType>, transitionTo: target, make)
  }

  /// On an event of type `event`, go to the state `make` computes; `target`
  /// names it for the diagrams.
  ///
  /// ```swift
  /// On(Retry.self, transitionTo: .case("loading")) { .loading(page: page()) }
  /// ```
  @inlinable
  public init<EventType, TargetValue>(
    _ event: EventType.Type,
    transitionTo target: Pattern<State, TargetValue>,
    _ make: @escaping @Sendable () -> State
  ) {
    self.init(typePattern(event) as Pattern<Event, Void>, transitionTo: target, make)
  }

  // MARK: - Every event

  /// On any event, go to the constant state `target`.
  ///
  /// ```swift
  /// From(Phase.failed) { On(AnyEvent.self, transitionTo: Phase.loading(page: 1)) }
  /// ```
  @inlinable
  public init(_ event: AnyEvent.Type, transitionTo target: State) {
    self.init(Pattern<Event, Event>.anyNamed("AnyEvent"), transitionTo: target)
  }

  /// On any event, go to the state `make` computes from it; `target` names
  /// it for the diagrams.
  ///
  /// ```swift
  /// On(AnyEvent.self, transitionTo: .case("failed")) { event in .failed(last: event) }
  /// ```
  @inlinable
  public init<TargetValue>(
    _ event: AnyEvent.Type,
    transitionTo target: Pattern<State, TargetValue>,
    _ make: @escaping @Sendable (Event) -> State
  ) {
    self.init(Pattern<Event, Event>.anyNamed("AnyEvent"), transitionTo: target, make)
  }
}

extension On where Event: Equatable {
  /// On an event equal to `event` (an enum case without associated
  /// values), go to the constant state `target`.
  ///
  /// ```swift
  /// On(Action.refresh, transitionTo: Phase.loading(page: 1))
  /// ```
  @inlinable
  public init(_ event: Event, transitionTo target: State) {
    self.init(Pattern.value(event), transitionTo: target)
  }

  /// On an event equal to `event`, go to the state `make` computes; `target`
  /// names it for the diagrams.
  ///
  /// ```swift
  /// On(Action.refresh, transitionTo: .case("loading")) { .loading(page: page()) }
  /// ```
  @inlinable
  public init<TargetValue>(
    _ event: Event,
    transitionTo target: Pattern<State, TargetValue>,
    _ make: @escaping @Sendable () -> State
  ) {
    self.init(Pattern.value(event), transitionTo: target, make)
  }
}

/// The pattern for an event type, or the wildcard when the type is
/// ``AnyEvent`` (a generic initializer may receive it).
@inlinable
func typePattern<Root: Sendable, Value>(_ type: Value.Type) -> Pattern<Root, Void> {
  if Value.self == AnyEvent.self || Value.self == AnyState.self {
    return Pattern(name: String(describing: type), isWildcard: true, extract: { _ in () })
  }
  return Pattern(name: String(describing: type), isWildcard: false, extract: { $0 is Value ? () : nil })
}

@inlinable
func typePattern<Root: Sendable, Value: Sendable>(_ type: Value.Type) -> Pattern<Root, Value> {
  guard Value.self != AnyEvent.self && Value.self != AnyState.self else {
    fatalError("FeedbackLoopDeclarative: the wildcard \(type) has no value to extract")
  }
  return .type(type)
}
