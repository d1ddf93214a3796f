/// The transitions out of the states a pattern matches: a state type, an
/// enum case, a value, or ``AnyState``.
///
/// The block receives the matched state as a ``Matched`` value, which its
/// transitions read when they run.
///
/// ```swift
/// From(LoadingState.self) { state in
///   On(DataIsLoaded.self, transitionTo: LoadedState.self) { event in
///     LoadedState(page: state.page, data: event.data)
///   }
///   On(LoadingHasFailed.self, transitionTo: ErrorState())
/// }
/// From(.case("loading", \Phase.loading)) { page in
///   On(Action.cancel, transitionTo: Phase.idle)
/// }
/// ```
///
/// Blocks are values: define them apart and gather them in ``Transitions``.
/// When blocks for the same states both have a transition for an event, the
/// rule in ``Transitions`` decides which runs.
public struct From<State: Sendable, Event: Sendable>: Sendable {
  /// The name of the matched states, as the diagrams show it.
  public let stateName: String
  /// Whether the block matches every state (``AnyState``).
  public let matchesAnyState: Bool
  @usableFromInline let compile: @Sendable () -> CompiledBlock<State, Event>
  @usableFromInline var disabled: [@Sendable () -> Bool] = []

  /// The transitions out of the states `pattern` matches; `transitions`
  /// reads the value the pattern extracts.
  ///
  /// ```swift
  /// From(.case("loaded", \Phase.loaded)) { loaded in
  ///   On(Action.refresh, transitionTo: .case("loading")) { .loading(page: loaded.page) }
  /// }
  /// ```
  @inlinable
  public init<Value>(
    _ pattern: Pattern<State, Value>,
    @OnBuilder<State, Event> _ transitions: @escaping @Sendable (Matched<Value>) -> [On<State, Event>]
  ) {
    stateName = pattern.name
    matchesAnyState = pattern.isWildcard
    compile = {
      let box = MatchedBox<Value>()
      return CompiledBlock(
        ons: transitions(Matched(box: box)),
        bind: { state in
          guard let value = pattern.extract(from: state) else { return false }
          box.value = value
          return true
        },
        unbind: { box.value = nil })
    }
  }

  /// The transitions out of the states `pattern` matches.
  ///
  /// ```swift
  /// From(.value(Phase.failed)) {
  ///   On(AnyEvent.self, transitionTo: Phase.loading(page: 1))
  /// }
  /// ```
  @inlinable
  public init<Value>(
    _ pattern: Pattern<State, Value>,
    @OnBuilder<State, Event> _ transitions: @escaping @Sendable () -> [On<State, Event>]
  ) {
    stateName = pattern.name
    matchesAnyState = pattern.isWildcard
    compile = {
      CompiledBlock(ons: transitions(), bind: { pattern.matches($0) }, unbind: {})
    }
  }

  /// The transitions out of the states of type `type` (the Feedbacks library's form).
  ///
  /// ```swift
  /// From(VolumeState.self) { state in
  ///   On(IncreaseEvent.self, transitionTo: VolumeState(value: state.value + 1))
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

  /// The transitions out of the states of type `type`, when they need not
  /// read the state.
  ///
  /// ```swift
  /// From(ErrorState.self) {
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

  /// The transitions out of every state (the Feedbacks library's wildcard). They apply
  /// only where no block for an exact state has a transition for the event.
  ///
  /// ```swift
  /// From(AnyState.self) { state in
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

  /// The transitions out of every state, when they need not read it.
  ///
  /// ```swift
  /// From(AnyState.self) {
  ///   On(ResetEvent.self, transitionTo: IdleState())
  /// }
  /// ```
  @inlinable
  public init(
    _ type: AnyState.Type,
    @OnBuilder<State, Event> _ transitions: @escaping @Sendable () -> [On<State, Event>]
  ) {
    self.init(Pattern<State, State>.anyNamed("AnyState"), transitions)
  }
}

extension From where State: Equatable {
  /// The transitions out of the state equal to `state` (an enum case
  /// without associated values).
  ///
  /// ```swift
  /// From(Phase.idle) {
  ///   On(Action.start, transitionTo: Phase.loading(page: 1))
  /// }
  /// ```
  @inlinable
  public init(
    _ state: State,
    @OnBuilder<State, Event> _ transitions: @escaping @Sendable () -> [On<State, Event>]
  ) {
    self.init(Pattern.value(state), transitions)
  }
}

/// A ``From`` block as one running system uses it: its transitions built
/// once, and the box its ``Matched`` reads.
@usableFromInline
final class CompiledBlock<State: Sendable, Event: Sendable> {
  @usableFromInline let ons: [On<State, Event>]
  /// Extracts the matched value into the box; `false` if the block does not match.
  @usableFromInline let bind: (State) -> Bool
  /// Empties the box after the transition ran.
  @usableFromInline let unbind: () -> Void

  @inlinable
  init(ons: [On<State, Event>], bind: @escaping (State) -> Bool, unbind: @escaping () -> Void) {
    self.ons = ons
    self.bind = bind
    self.unbind = unbind
  }
}
