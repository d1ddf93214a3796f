import FeedbackLoop

/// The state machine of a system: ``From`` blocks of ``On`` transitions,
/// which together make its reducer.
///
/// ```swift
/// let transitions = Transitions {
///   From(LoadingState.self) { state in
///     On(DataIsLoaded.self, transitionTo: LoadedState.self) { event in
///       LoadedState(page: state.page, data: event.data)
///     }
///     On(LoadingHasFailed.self, transitionTo: ErrorState())
///   }
///   From(ErrorState.self) {
///     On(AnyEvent.self, transitionTo: LoadingState(page: 1))
///   }
/// }
/// transitions.reduce(LoadingState(page: 1), LoadingHasFailed())  // ErrorState()
/// ```
///
/// Gather blocks defined apart by listing them, or other `Transitions`:
///
/// ```swift
/// let transitions = Transitions {
///   loadingTransitions
///   loadedTransitions
/// }
/// ```
///
/// ## Which transition runs
///
/// For a state and an event, the transitions whose block matches the state
/// and whose event matches the event (and that are not disabled) are
/// candidates. The first candidate in this order runs, and no other:
///
/// 1. exact state, exact event;
/// 2. exact state, ``AnyEvent``;
/// 3. ``AnyState``, exact event;
/// 4. ``AnyState``, ``AnyEvent``;
///
/// and within one rank, the transition declared first: blocks in the order
/// they are listed (a `Transitions` listed inside another takes the place
/// where it is listed), transitions in the order of their block. So when
/// two blocks for the same state both handle an event, the block listed
/// first wins, as the first matching `case` of a `switch` does. "Exact"
/// means anything but a wildcard: a type, a case, a value. When no
/// transition matches, the system's ``UnmatchedEventPolicy`` decides; the
/// state stays as it is by default.
public struct Transitions<State: Sendable, Event: Sendable>: Sendable {
  /// The blocks, in the order they were listed.
  public internal(set) var blocks: [From<State, Event>]
  /// Where the reducer runs, if these transitions say (``isolation(_:)``).
  public internal(set) var isolation: SystemIsolation?

  /// Transitions from the blocks `content` lists.
  ///
  /// ```swift
  /// Transitions<Phase, Action> {
  ///   From(Phase.idle) { On(Action.start, transitionTo: Phase.loading(page: 1)) }
  /// }
  /// ```
  public init(@TransitionsBuilder<State, Event> _ content: () -> [From<State, Event>]) {
    self.init(content())
  }

  /// Transitions from `blocks`, in order.
  ///
  /// ```swift
  /// let transitions = Transitions([loadingTransitions, loadedTransitions])
  /// ```
  public init(_ blocks: [From<State, Event>]) {
    self.blocks = blocks
    self.isolation = nil
  }

  /// The state after `event` in `state`, or `nil` if no transition matches.
  ///
  /// Runs the same rule as a system does, with transitions built for this
  /// one call: made for tests and tools, not for a hot loop.
  ///
  /// ```swift
  /// #expect(transitions.nextState(from: LoadingState(page: 1), on: RefreshEvent()) == nil)
  /// ```
  public func nextState(from state: State, on event: Event) -> State? {
    TransitionTable(self, unmatched: .keepState, environment: nil).nextState(from: state, on: event)
  }

  /// The state after `event` in `state`: the matching transition's target,
  /// or `state` itself if none matches (the Feedbacks library's behaviour).
  ///
  /// ```swift
  /// transitions.reduce(VolumeState(value: 10), IncreaseEvent())  // VolumeState(value: 11)
  /// ```
  public func reduce(_ state: State, _ event: Event) -> State {
    nextState(from: state, on: event) ?? state
  }
}

/// Collects the ``From`` blocks of ``Transitions``, and other
/// `Transitions`, in order. `if` and `for` choose blocks when the system is
/// declared.
@resultBuilder
public enum TransitionsBuilder<State: Sendable, Event: Sendable> {
  public static func buildExpression(_ block: From<State, Event>) -> [From<State, Event>] { [block] }
  public static func buildExpression(_ blocks: [From<State, Event>]) -> [From<State, Event>] { blocks }
  public static func buildExpression(_ transitions: Transitions<State, Event>) -> [From<State, Event>] {
    transitions.blocks
  }
  public static func buildBlock(_ parts: [From<State, Event>]...) -> [From<State, Event>] { parts.flatMap { $0 } }
  public static func buildOptional(_ part: [From<State, Event>]?) -> [From<State, Event>] { part ?? [] }
  public static func buildEither(first part: [From<State, Event>]) -> [From<State, Event>] { part }
  public static func buildEither(second part: [From<State, Event>]) -> [From<State, Event>] { part }
  public static func buildArray(_ parts: [[From<State, Event>]]) -> [From<State, Event>] { parts.flatMap { $0 } }
}
