import FeedbackLoop

/// A declared system, not running yet: an initial state, feedbacks and
/// transitions, and the system-wide modifiers.
///
/// Most code never names this type: `System { ... }` declares and starts a
/// core ``FeedbackLoop/System`` in one step. Keep a `DeclarativeSystem` to
/// start it later, more than once (each start is a system of its own), or to
/// draw its ``diagram``:
///
/// ```swift
/// let volume = DeclarativeSystem {
///   InitialState { VolumeState(value: 10) }
///   Feedbacks { ... }
///   Transitions { ... }
/// }
/// print(volume.diagram.mermaid)
/// let system = volume.start()  // running
/// ```
///
/// ## Why two names
///
/// The core's running system is `System`; a second type of that name here
/// would force everyone who imports both modules to qualify both. So the
/// declaration is a value of its own, and `System { ... }` is an initializer
/// the declarative module adds to the core's `System`: a declared system *is*
/// a core system, with its guarantees, its testing kit and its costs.
public struct DeclarativeSystem<State: Sendable, Event: Sendable>: Sendable {
  /// The state the system starts in.
  public let initialState: State
  /// The feedbacks, in the order they see each state.
  public let feedbacks: Feedbacks<State, Event>
  /// The state machine.
  public let transitions: Transitions<State, Event>
  /// What an event no transition matches does.
  public internal(set) var unmatchedEvents: UnmatchedEventPolicy<State, Event> = .keepState
  /// Whether ``unmatchedEvents(_:)`` chose the policy: the first call
  /// does, and a later one keeps it (the inner modifier wins).
  var choseUnmatchedEvents = false
  /// A `TaskExecutor` for every effect and input, stored untyped because
  /// `TaskExecutor` needs macOS 15.
  @usableFromInline var executor: (any Sendable)?

  init(initialState: State, feedbacks: Feedbacks<State, Event>, transitions: Transitions<State, Event>) {
    self.initialState = initialState
    self.feedbacks = feedbacks
    self.transitions = transitions
  }

  /// Declares a system with an initial state, feedbacks and transitions.
  ///
  /// ```swift
  /// let loader = DeclarativeSystem<Phase, Action> {
  ///   InitialState { .loading(page: 1) }
  ///   Transitions { ... }
  /// }
  /// ```
  public init(@SystemBuilder<State, Event> _ content: () -> DeclarativeSystem<State, Event>) {
    self = content()
  }

  /// The same system, with `policy` for events that no transition matches,
  /// unless a policy was chosen already: applied twice, the first call (the
  /// inner one) wins, as every modifier of this module does.
  ///
  /// ```swift
  /// DeclarativeSystem { ... }.unmatchedEvents(.failInDebugBuilds)
  /// ```
  public func unmatchedEvents(_ policy: UnmatchedEventPolicy<State, Event>) -> DeclarativeSystem {
    guard !choseUnmatchedEvents else { return self }
    var copy = self
    copy.unmatchedEvents = policy
    copy.choseUnmatchedEvents = true
    return copy
  }

  /// The same system, its effects and inputs run on `executor` (the Feedbacks library's
  /// `System { ... }.execute(on:)`), whatever executor the environment it
  /// starts with names. Applied twice, the first call (the inner one) wins.
  ///
  /// ```swift
  /// DeclarativeSystem { ... }.effectExecutor(backgroundExecutor)
  /// ```
  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  public func effectExecutor(_ executor: any TaskExecutor) -> DeclarativeSystem {
    var copy = self
    if copy.executor == nil { copy.executor = executor }
    return copy
  }

  /// Starts the system on the core runtime.
  ///
  /// - Parameters:
  ///   - isolation: where the reducer and feedbacks run; by default what the
  ///     transitions say (``Transitions/isolation(_:)``), else `.sendingThread`.
  ///   - environment: the clock, executor, logger and event buffer.
  ///   - monitor: receives every reduction and effect.
  ///   - caller: the caller's isolation, filled in by the compiler: a
  ///     main-actor system started on the main actor delivers its initial
  ///     state before `start` returns.
  ///
  /// ```swift
  /// let system = volume.start(environment: SystemEnvironment(clock: clock))
  /// ```
  @inlinable
  public func start(
    isolation: SystemIsolation? = nil,
    environment: SystemEnvironment = SystemEnvironment(),
    monitor: SystemMonitor<State, Event>? = nil,
    caller: isolated (any Actor)? = #isolation
  ) -> FeedbackLoop.System<State, Event> {
    FeedbackLoop.System(self, isolation: isolation, environment: environment, monitor: monitor, caller: caller)
  }

  /// The arguments of the core system that runs this declaration.
  ///
  /// Inlinable, as the core's initializers are, so that the reducer and the
  /// feedbacks' closures are built, and the core system started, in the
  /// user's module, specialized for its `State` and `Event`.
  @inlinable
  func coreParts(
    isolation: SystemIsolation?,
    environment: SystemEnvironment
  ) -> (
    reduce: @Sendable (inout State, Event) -> Void,
    feedbacks: [FeedbackLoop.Feedback<State, Event>],
    isolation: SystemIsolation,
    environment: SystemEnvironment
  ) {
    var environment = environment
    if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *), let executor = executor as? any TaskExecutor {
      environment.effectExecutor = executor
    }
    let table = TransitionTable(transitions, unmatched: unmatchedEvents, environment: environment)
    return (
      reduce: { state, event in table.reduce(&state, event) },
      feedbacks: feedbacks.makeCoreFeedbacks(),
      isolation: isolation ?? transitions.isolation ?? .sendingThread,
      environment: environment
    )
  }
}
