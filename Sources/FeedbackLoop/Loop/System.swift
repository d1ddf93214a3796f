/// A running feedback loop: an initial state, a reducer, and feedbacks.
///
/// A system starts when it is created: every feedback and observer sees the
/// initial state before any event is reduced (G1). Events are reduced one at
/// a time, in the order they were sent, whichever threads send them (G2);
/// after each reduction every feedback sees the new state, then the
/// observers do (G3). The system stops when ``stop(isolation:)`` is called, when the
/// task running ``run()`` is cancelled, or when its last reference is
/// released: every effect and input is cancelled and nothing runs afterwards
/// (G9). Feedbacks hold nothing that holds the system, so releasing it is
/// enough.
///
/// ```swift
/// enum Event: Sendable { case increment, decrement }
///
/// let buttons = Input<Event>()
/// let counter = System(
///   initial: 0,
///   reduce: { count, event in
///     switch event {
///     case .increment: count += 1
///     case .decrement: count -= 1
///     }
///   },
///   feedbacks: [.input(buttons)]
/// )
/// buttons.send(.increment)
/// counter.state  // 1
/// ```
///
/// ## Starting a system
///
/// One initializer per way of giving the reducer, each with the same
/// `feedbacks:`, `isolation:`, `environment:` and `monitor:` after it:
///
/// - `System(initial:reduce:)`: the reducer, `(inout State, Event) -> Void`.
/// - `System(initial:reduceReturning:)`: a reducer that returns the new
///   state, `(State, Event) -> State`.
/// - `System(initial:reducer:)`: a ``Reducer`` value, composed of lifted
///   reducers.
/// - `System(initial:feature:)`: a ``Feature``, its reducer and its
///   feedbacks.
///
/// A value that describes a whole system starts it with `start(...)`: a
/// declarative system (`DeclarativeSystem.start`, or `System { ... }` in one
/// step), a statechart (`Statechart.start(context:)`) and Cycle's
/// `Router.start`.
public final class System<State: Sendable, Event: Sendable>: Sendable {
  @usableFromInline let core: SystemCore<State, Event>

  /// Starts a system whose reducer returns the new state, the form of the
  /// Feedback libraries this one follows.
  ///
  /// The reducer of this library changes the state in place
  /// (``init(initial:reduce:feedbacks:isolation:environment:monitor:caller:)``);
  /// this form is for a reducer written `(State, Event) -> State`, and
  /// always carries the label `reduceReturning:`.
  ///
  /// ```swift
  /// let counter = System(initial: 0, reduceReturning: { count, step in count + step })
  /// ```
  ///
  /// - Parameters:
  ///   - initial: the state the system starts in.
  ///   - reduce: the pure function `(State, Event) -> State`, the
  ///     only place the state changes.
  ///   - feedbacks: the feedbacks, in the order they see each state.
  ///   - isolation: where the reducer and the feedbacks run (G10).
  ///   - environment: the clock, executor, logger and event buffer.
  ///   - monitor: receives every reduction and effect.
  ///   - caller: the caller's isolation, filled in by the compiler: a
  ///     main-actor system created on the main actor delivers its initial
  ///     state before `init` returns; created elsewhere, with one hop.
  @inlinable
  public convenience init(
    initial: consuming State,
    reduceReturning reduce: @escaping @Sendable (State, Event) -> State,
    feedbacks: [Feedback<State, Event>] = [],
    isolation: SystemIsolation = .sendingThread,
    environment: SystemEnvironment = SystemEnvironment(),
    monitor: SystemMonitor<State, Event>? = nil,
    caller: isolated (any Actor)? = #isolation
  ) {
    self.init(
      initial: consume initial,
      reduce: { state, event in state = reduce(state, event) },
      feedbacks: feedbacks, isolation: isolation, environment: environment, monitor: monitor,
      caller: caller)
  }

  /// Starts a system: its reducer changes the state in place, which spares
  /// a large state a copy per event.
  ///
  /// The in-place form `(inout State, Event) -> Void` is the reducer
  /// everywhere in this library (``Reducer``, `TestSystem`, `Store`,
  /// `TransitionAssertions`); a reducer that returns the new state goes to
  /// ``init(initial:reduceReturning:feedbacks:isolation:environment:monitor:caller:)``.
  ///
  /// ```swift
  /// let search = System(
  ///   initial: Search.State(),
  ///   reduce: Search.reduce,  // (inout State, Event) -> Void
  ///   feedbacks: Search.feedbacks(api: api)
  /// )
  /// ```
  @inlinable
  public init(
    initial: consuming State,
    reduce: @escaping @Sendable (inout State, Event) -> Void,
    feedbacks: [Feedback<State, Event>] = [],
    isolation: SystemIsolation = .sendingThread,
    environment: SystemEnvironment = SystemEnvironment(),
    monitor: SystemMonitor<State, Event>? = nil,
    caller: isolated (any Actor)? = #isolation
  ) {
    core = SystemCore(
      initial: consume initial, reducer: reduce, feedbacks: feedbacks,
      isolation: isolation, environment: environment, monitor: monitor)
    core.start(callerIsMainActor: caller === MainActor.shared)
  }

  deinit {
    // A deinitializer cannot tell its isolation: the teardown runs on the
    // releasing thread, as it did before, so that releasing a system (a
    // store, a view model) on the main actor has stopped it by the time the
    // release returns.
    core.stop(callerIsMainActor: true)
    // An Input may keep the core: the state goes now (G9: a system nobody holds is deallocated).
    core.systemReleased()
  }

  /// The current state.
  ///
  /// Read from any thread. A read from another thread than the one running
  /// the loop waits, at most, for the reducer running at that moment: never
  /// for feedbacks, effects or observers, and the loop never waits for it
  /// (G15). A state without references (numbers, enums, structs of them) is
  /// copied without a lock, in a few nanoseconds; another state with the
  /// system's lock, or from a copy the loop publishes at its next step. A
  /// thread that reads a busy system again and again pauses a fraction of
  /// a microsecond after each read, so that it cannot slow the loop; to
  /// follow every state, observe them (``observe(isolation:_:onStop:)``,
  /// ``states``) rather than poll.
  ///
  /// ```swift
  /// let count = system.state   // from any thread
  /// ```
  ///
  /// Reading it from inside the reducer, or from code the reducer reaches
  /// through a send to another system, is a programming error (the reducer
  /// receives the state).
  @inlinable
  public var state: State { core.currentState }

  /// Sends an event, from any thread, task or actor.
  ///
  /// On an idle system of its own isolation, and on a main-actor system when
  /// called on the main actor, the event has been reduced, and the feedbacks
  /// and observers have seen the new state, by the time `send` returns.
  /// Otherwise it is queued and reduced in order. A send from inside the
  /// reducer, a feedback or an observer is queued and reduced after the
  /// current event, never re-entrantly. Events sent to a stopped system are
  /// dropped and reported to the monitor as ``DiscardReason/systemStopped``.
  ///
  /// - Parameters:
  ///   - event: the event to reduce.
  ///   - caller: the caller's isolation, filled in by the compiler.
  @inlinable
  public func send(_ event: Event, isolation caller: isolated (any Actor)? = #isolation) {
    core.submit(event, from: .external, callerIsMainActor: caller === MainActor.shared)
  }

  /// Sends an event as ``send(_:isolation:)`` does, in the same order with
  /// the other sends (G2), tagged so that the monitor's reduction shortcut
  /// tells it apart from every other external event
  /// (``ReductionOrigin/isCountedSend``): a durable system matches each of
  /// its callers to its own event by counting these, which an ``Input``'s
  /// events, external too, must not disturb. A plain `send` pays nothing
  /// for it: the tag is the token the event carries anyway.
  @inlinable
  package func sendCounted(_ event: Event, isolation caller: isolated (any Actor)? = #isolation) {
    core.submit(event, from: .countedExternal, callerIsMainActor: caller === MainActor.shared)
  }

  /// Sends several events, in order.
  @inlinable
  public func send(contentsOf events: some Sequence<Event>, isolation caller: isolated (any Actor)? = #isolation) {
    let onMainActor = caller === MainActor.shared
    for event in events { core.submit(event, from: .external, callerIsMainActor: onMainActor) }
  }

  /// Where this system's reducer and feedbacks run (G10).
  public var isolation: SystemIsolation { core.isolation }

  /// Reduces, now, the events that effects and other threads queued for a
  /// main-actor system, instead of waiting for the hop that is scheduled
  /// for them.
  ///
  /// A main-actor system reduces a send made on the main actor at once;
  /// events sent from elsewhere wait for one hop to the main actor. Tests
  /// that run effects on a ``SystemEnvironment/effectExecutor`` of their own
  /// call this after running it, so that the whole loop is deterministic.
  ///
  /// ```swift
  /// executor.runUntilIdle()        // effects run and send
  /// system.processQueuedEvents()   // their events are reduced, here
  /// ```
  @MainActor
  public func processQueuedEvents() {
    core.processQueuedEvents()
  }

  /// Stops the system: every effect and input is cancelled, observers'
  /// sequences finish, and no event is reduced afterwards (G9). Stopping a
  /// stopped system does nothing.
  ///
  /// Called from inside the loop (a feedback's query, an observer), it
  /// returns with ``isStopped`` true and ends the pass: no later feedback or
  /// observer sees the state, and the system tears down when the callback
  /// returns. An event sent during the teardown (from an `onStop` handler,
  /// or the monitor's ``SystemActivity/stopped``) is reported
  /// ``DiscardReason/systemStopped``, and an observer added then is told at
  /// once that the system stopped.
  ///
  /// Called from another thread while the loop hands a state out (an
  /// effect that stops its system), it waits for the reducer only: the
  /// feedbacks not yet asked for that state are not asked, but every
  /// observer still gets it, since it was reduced before the stop. So an
  /// observer's last state, and a ``states`` sequence's, is the system's
  /// last, whatever the timing.
  ///
  /// The teardown runs where the loop runs: `onStop` handlers and the
  /// monitor are called on the stopping thread for a system of its own
  /// isolation, and on the main actor for a main-actor system; stopped off
  /// the main actor, a main-actor system is marked stopped at once (no
  /// event is reduced afterwards) and tears down one hop later (G10).
  /// Releasing the last reference tears down on the releasing thread, which
  /// a deinitializer cannot hop from: release a main-actor system on the
  /// main actor, or stop it first.
  ///
  /// - Parameter caller: the caller's isolation, filled in by the compiler.
  public func stop(isolation caller: isolated (any Actor)? = #isolation) {
    core.stop(callerIsMainActor: caller === MainActor.shared)
  }

  /// Whether the system has stopped.
  public var isStopped: Bool { core.isStopped }

  /// Whether a thread runs the loop at this moment, or events wait to be
  /// reduced (`package`): a main-actor system's events sent from elsewhere
  /// wait for their hop to the main actor, and no task of the system counts
  /// them, so a host that unloads idle systems asks here too before it
  /// stops one (stopped, the system would drop them).
  package var hasWorkInFlight: Bool { core.hasWorkInFlight }

  /// The number of this system's effect and input tasks that have not
  /// ended yet. After ``stop(isolation:)``, it falls to zero as the cancelled tasks
  /// end. Immediate effects (`.send`) never count.
  ///
  /// It is public, not behind an SPI, because it is meant for an app's own
  /// tests: "stopping the screen's system leaves no task running" is a test
  /// an app writes, as RxSwift users write one with `Resources.total`; an SPI
  /// import would make that test lean on an underscored attribute, and
  /// would remove the property from code that uses it today.
  ///
  /// ```swift
  /// system.stop()
  /// await Task.yield()  // or drive the test executor until the tasks end
  /// #expect(system.runningTaskCount == 0)
  /// ```
  public var runningTaskCount: Int { core.runningTaskCount }

  /// Keeps the system running until the calling task is cancelled, then
  /// stops it.
  ///
  /// ```swift
  /// let task = Task { await system.run() }
  /// // ...
  /// task.cancel()  // the system stops
  /// ```
  public func run() async {
    let states = self.states(buffering: .newest(1))
    for await _ in states {}
    stop()
  }
}
