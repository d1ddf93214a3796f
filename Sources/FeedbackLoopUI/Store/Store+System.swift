import FeedbackLoop

extension Store where State: Sendable, Event: Sendable {
  /// Starts a system on the main actor and holds it in a store: the
  /// counterpart of `System(initial:reduceReturning:feedbacks:)`
  /// for a user interface (ReactiveFeedback's
  /// `Property(initial:reduce:feedbacks:)`).
  ///
  /// The system runs with isolation `SystemIsolation.mainActor`:
  /// its reducer, its feedbacks and the store's state updates run on the
  /// main actor, and a send made there reduces before it returns. The
  /// initial state has reached every feedback, and the store, when `init`
  /// returns (G1).
  ///
  /// ```swift
  /// let store = Store(
  ///   initial: Search.State(),
  ///   reduceReturning: Search.reduce,
  ///   feedbacks: Search.feedbacks(api: api)
  /// )
  /// store.send(.search("swift"))
  /// store.isLoading  // true
  /// ```
  ///
  /// - Parameters:
  ///   - initial: the state the system starts in.
  ///   - reduce: the pure function `(State, Event) -> State`.
  ///   - feedbacks: the feedbacks, in the order they see each state.
  ///   - environment: the clock, effect executor, logger and event buffer.
  ///   - monitor: receives every reduction and effect.
  @inlinable
  public convenience init(
    initial: State,
    reduceReturning reduce: @escaping @Sendable (State, Event) -> State,
    feedbacks: [Feedback<State, Event>] = [],
    environment: SystemEnvironment = SystemEnvironment(),
    monitor: SystemMonitor<State, Event>? = nil
  ) {
    self.init(
      System(
        initial: initial, reduceReturning: reduce, feedbacks: feedbacks,
        isolation: .mainActor, environment: environment, monitor: monitor))
  }

  /// Starts a system on the main actor whose reducer changes the state in
  /// place, and holds it in a store.
  ///
  /// ```swift
  /// let store = Store(initial: Counter.State(), reduce: Counter.reduce)
  /// ```
  @inlinable
  public convenience init(
    initial: State,
    reduce: @escaping @Sendable (inout State, Event) -> Void,
    feedbacks: [Feedback<State, Event>] = [],
    environment: SystemEnvironment = SystemEnvironment(),
    monitor: SystemMonitor<State, Event>? = nil
  ) {
    self.init(
      System(
        initial: initial, reduce: reduce, feedbacks: feedbacks,
        isolation: .mainActor, environment: environment, monitor: monitor))
  }

  /// Holds a running system in a store: for a system built elsewhere, such
  /// as a declarative one (`DeclarativeSystem { ... }.start(isolation: .mainActor)`,
  /// Feedbacks' `UISystem`).
  ///
  /// The system must run on the main actor: start it with isolation
  /// `SystemIsolation.mainActor`. The store checks it at run
  /// time, on every state, and stops the process with a message if a state
  /// arrives elsewhere. The store keeps the system running while it lives.
  /// However the system stops (through the store's ``stop()``, the system's
  /// own `stop()`, or a feedback), the store follows: ``isStopped`` turns
  /// `true` and its state sequences and publishers finish (G9); a stop made
  /// off the main actor reaches the store after one hop to it.
  ///
  /// ```swift
  /// let store = Store(volume.start(isolation: .mainActor))
  /// let label = store.project { "Volume \($0.value)" }
  /// ```
  @inlinable
  public convenience init(_ system: System<State, Event>) {
    self.init(system, forward: { event in system.send(event) }, stop: { system.stop() }, owner: system)
  }

  /// Holds a running system in a store whose events and stop go through
  /// `forward` and `stop` rather than straight to the system: for a wrapper
  /// that must see them (a durable system counts and bounds what it sends).
  /// `owner` is kept alive as long as the store.
  @inlinable
  package convenience init(
    _ system: System<State, Event>,
    forward: @escaping @MainActor (Event) -> Void,
    stop: @escaping @MainActor () -> Void,
    owner: AnyObject
  ) {
    self.init(
      initial: system.state,
      isDuplicate: equality(of: State.self),
      route: .root(forward: forward),
      stop: stop,
      processQueued: { system.processQueuedEvents() },
      owner: owner)
    // The observer is a `@Sendable` closure, which the core calls from the
    // thread that drains the system. For a `.mainActor` system that is always
    // the main actor: the core drains it only for a caller isolated to the
    // main actor (a send or an observation made there, which it learns from
    // `#isolation`) or in its own `Task { @MainActor in ... }` hop, and it
    // calls observers from the drain. So the main actor's isolation holds; the
    // precondition checks it at run time (for a system built elsewhere, whose
    // isolation the core does not tell) and stops the process with a message
    // if it ever did not. Observing from this main-actor `init` on an idle
    // system delivers the current state at once, so no state is missed
    // between `system.state` above and this line. The closures hold the store
    // weakly: the system does not keep its store alive.
    //
    // `onStop` tells the store when the system stops, whoever stops it (the
    // store, a holder of the system, a feedback, another thread), so that
    // `isStopped` and the store's sequences follow the system (G9). The core
    // calls it on the thread that stops or drains the system: on the main
    // queue (the main actor's) the store takes the stop at once; from
    // elsewhere it hops to the main actor.
    let receive = checkedOnMainActor { (store: Store, state: State) in store.onState(state) }
    _ = system.observe { [weak self] state in
      MainActor.preconditionIsolated(
        "FeedbackLoopUI: a Store needs a system that runs on the main actor (isolation: .mainActor)")
      guard let self else { return }
      receive(self, state)
    } onStop: { [weak self] in
      guard MainQueue.isCurrent else {
        Task { @MainActor [weak self] in self?.systemStopped() }
        return
      }
      MainActor.assumeIsolated { self?.systemStopped() }
    }
    if system.isStopped { systemStopped() }
  }
}
