import CFeedbackLoopShims
import DequeModule
import Logging

/// The engine of a running system: a queue of work, a lock, and the rule of
/// who drains the queue.
///
/// ## The drain
///
/// At most one thread at a time *drains* the system: it reduces one event,
/// fans the new state out to the feedbacks and then to the observers, and
/// takes the next item, until the queue is empty. Whoever sends to an idle
/// system becomes that thread (for ``SystemIsolation/mainActor``, only the
/// main thread may; others queue and schedule one hop to it). A send that
/// arrives while the system is busy only enqueues, and returns: a send from
/// inside the reducer, a feedback or an observer is therefore never
/// re-entrant and never deadlocks (G2).
///
/// The thread that drains is marked in a thread-local variable. Its own sends
/// go to `pendingLocal`, which only it touches, so that a feedback answering
/// a state at once costs no lock; they join the shared queue at the next step.
///
/// ## What the lock guards
///
/// `lock` guards `state`, `inbox`, `queuedEvents`, `draining`, `stopped` and
/// `mainDrainScheduled`. The reducer runs under the lock, in place, so that a
/// reader on another thread sees whole states and a large state is never
/// copied to be reduced. Everything else (the feedback runtimes, observers,
/// `pendingLocal`, `isReducing`) belongs to the draining thread: only the
/// thread that set `draining` touches it, and `draining` is handed over under
/// the lock, which orders those accesses.
///
/// ## Why not an actor
///
/// An actor would make every send from outside an `await` and a hop, and a
/// main-actor system could not reduce before `send` returns. A lock that is
/// held only for the reducer keeps a send from an idle system's own thread
/// at two uncontended lock operations, with no task and no allocation
/// (see BENCHMARKS.md), which is what the design asks of the hot path.
///
/// ## Why it is `@inlinable`
///
/// The per-event path (send, reduce, fan out) is `@inlinable`, and the
/// feedbacks' per-state work is a closure built in `@inlinable` code, so that
/// it is compiled in the user's module, specialized for the user's `State`
/// and `Event`. Unspecialized, every event asked the Swift runtime for the
/// metadata of a dozen generic types, which cost most of the time per event.
@usableFromInline
final class SystemCore<State: Sendable, Event: Sendable>: @unchecked Sendable {
  // Sendable: the fields are either immutable, guarded by `lock`, or owned
  // by the draining thread as described above.

  @usableFromInline let environment: SystemEnvironment
  @usableFromInline let monitor: SystemMonitor<State, Event>?
  /// Whether there is a monitor: tested on the hot path, where reading the
  /// optional monitor itself would retain and release its closure.
  @usableFromInline let isMonitored: Bool
  @usableFromInline let isolation: SystemIsolation
  @usableFromInline let reducer: @Sendable (inout State, Event) -> Void
  @usableFromInline let lock = Lock()

  @inlinable
  var identity: UnsafeRawPointer { UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque()) }

  // Guarded by `lock`. Their accesses are exclusive by construction (the
  // lock, or the single draining thread), so Swift's dynamic exclusivity
  // checks, a fifth of the time of an event, are turned off for them.
  @exclusivity(unchecked) @usableFromInline var state: State
  @exclusivity(unchecked) @usableFromInline var inbox = Deque<InboxItem<State, Event>>()
  @exclusivity(unchecked) @usableFromInline var queuedEvents = 0
  @exclusivity(unchecked) @usableFromInline var draining = false
  @exclusivity(unchecked) @usableFromInline var stopped = false
  @exclusivity(unchecked) @usableFromInline var mainDrainScheduled = false
  @exclusivity(unchecked) @usableFromInline var nextObserverID: UInt64 = 0
  @exclusivity(unchecked) @usableFromInline var runningTasks = 0

  // Owned by the draining thread.
  @exclusivity(unchecked) @usableFromInline var runtimes: [FeedbackRuntime<State, Event>] = []
  @exclusivity(unchecked) @usableFromInline var stateHandlers: [(State) -> Void] = []
  @exclusivity(unchecked) @usableFromInline var eventHandlers: [(Event, State) -> Void] = []
  @exclusivity(unchecked) @usableFromInline var observers: [StateObserver<State>] = []
  @exclusivity(unchecked) @usableFromInline var pendingLocal = Deque<InboxItem<State, Event>>()
  @exclusivity(unchecked) @usableFromInline var isReducing = false
  @exclusivity(unchecked) @usableFromInline var stopRequested = false
  @exclusivity(unchecked) @usableFromInline var tornDown = false

  @usableFromInline
  init(
    initial: consuming State,
    reducer: @escaping @Sendable (inout State, Event) -> Void,
    feedbacks: [Feedback<State, Event>],
    isolation: SystemIsolation,
    environment: SystemEnvironment,
    monitor: SystemMonitor<State, Event>?
  ) {
    self.state = consume initial
    self.reducer = reducer
    self.isolation = isolation
    self.environment = environment
    self.monitor = monitor
    self.isMonitored = monitor != nil
    runtimes.reserveCapacity(feedbacks.count)
    for (index, feedback) in feedbacks.enumerated() {
      let runtime = feedback.makeRuntime(FeedbackID(index: index, label: feedback.label), self)
      runtimes.append(runtime)
      if let handler = runtime.stateHandler { stateHandlers.append(handler) }
      if let handler = runtime.eventHandler { eventHandlers.append(handler) }
    }
  }

  // MARK: - Sending

  /// Whether the caller may drain: any caller for a system of its own
  /// isolation; for a main-actor system, only a caller isolated to the main
  /// actor, which the public entry points learn from `#isolation` (the main
  /// actor need not run on the main thread, so the thread cannot tell).
  @inlinable @inline(__always)
  func mayDrain(callerIsMainActor: Bool) -> Bool {
    isolation == .own || callerIsMainActor
  }

  @inlinable @inline(__always)
  var isDrainingThread: Bool { fl_current_drainer() == identity }

  @inlinable
  func receive(_ event: Event, from token: EffectToken, callerIsMainActor: Bool = false) {
    submit(.event(event, token), callerIsMainActor: callerIsMainActor)
  }

  @inlinable
  func effectEnded(_ token: EffectToken, outcome: EffectOutcome) {
    submit(.effectEnded(token, outcome), callerIsMainActor: false)
  }

  @usableFromInline
  func receiveControl(feedback: Int32, value: any Sendable) {
    submit(.control(feedback: feedback, value: value), callerIsMainActor: false)
  }

  /// Queues events behind everything already queued, even from the draining
  /// thread (an ``Input`` hands over the events it kept before binding).
  @usableFromInline
  func enqueueShared(_ events: [Event]) {
    guard !events.isEmpty else { return }
    lock.lock()
    var dropped: [Event] = []
    for event in events {
      if let event = enqueueLocked(.event(event, .external)) { dropped.append(event) }
    }
    lock.unlock()
    for event in dropped { monitor?.receive(.eventDiscarded(event, reason: .bufferFull)) }
  }

  /// Enqueues work from a runtime, which always runs on the draining thread.
  @inlinable
  func enqueueFromLoop(_ item: InboxItem<State, Event>) {
    pendingLocal.append(item)
  }

  /// Queues `item`, or, when this thread may and the system is idle, becomes
  /// the draining thread and handles it at once.
  @inlinable
  func submit(_ item: InboxItem<State, Event>, callerIsMainActor: Bool) {
    if isDrainingThread {
      pendingLocal.append(item)
      return
    }
    lock.lock()
    if stopped {
      lock.unlock()
      if let event = item.event { monitor?.receive(.eventDiscarded(event, reason: .systemStopped)) }
      return
    }
    if draining || !mayDrain(callerIsMainActor: callerIsMainActor) {
      let dropped = enqueueLocked(item)
      let schedule = !draining && !mainDrainScheduled
      if schedule { mainDrainScheduled = true }
      lock.unlock()
      if let dropped { monitor?.receive(.eventDiscarded(dropped, reason: .bufferFull)) }
      if schedule { scheduleMainDrain() }
      return
    }
    draining = true
    let previousDrainer = fl_current_drainer()
    fl_set_current_drainer(identity)
    let step: Step
    if inbox.isEmpty {
      step = prepareLocked(item)
    } else {
      // A main-actor system may hold items sent from other threads before
      // this one: they go first.
      _ = enqueueLocked(item)
      step = prepareLocked(popLocked()!)
    }
    lock.unlock()
    drain(from: consume step, restoring: previousDrainer)
  }

  /// Appends to the shared queue under the buffer policy; returns the event
  /// dropped to respect it, if any. Caller holds `lock`.
  ///
  /// Only events count against the bound. An effect's final event that is
  /// dropped still ends its effect: it leaves an `effectEnded` in its place.
  @inlinable
  func enqueueLocked(_ item: InboxItem<State, Event>) -> Event? {
    guard item.isEvent else {
      inbox.append(item)
      return nil
    }
    switch environment.eventBuffer {
    case .unbounded:
      break
    case .dropNewest(let limit):
      if queuedEvents >= limit {
        if case .finalEvent(_, let token) = item { inbox.append(.effectEnded(token, .finished)) }
        return item.event
      }
    case .dropOldest(let limit):
      if queuedEvents >= limit, let oldest = inbox.firstIndex(where: \.isEvent) {
        let removed = inbox[oldest]
        if case .finalEvent(_, let token) = removed {
          inbox[oldest] = .effectEnded(token, .finished)
        } else {
          inbox.remove(at: oldest)
        }
        inbox.append(item)
        return removed.event
      }
    }
    queuedEvents += 1
    inbox.append(item)
    return nil
  }

  /// Caller holds `lock`.
  @inlinable
  func popLocked() -> InboxItem<State, Event>? {
    guard let item = inbox.popFirst() else { return nil }
    if item.isEvent { queuedEvents -= 1 }
    return item
  }

  @usableFromInline
  func scheduleMainDrain() {
    Task { @MainActor in self.drainOnMainActor() }
  }

  func drainOnMainActor() {
    lock.lock()
    mainDrainScheduled = false
    lock.unlock()
    processQueuedEvents()
  }

  /// Drains what is queued, now, if nobody is draining. The caller is on the
  /// main actor (for a main-actor system) or anywhere (for its own).
  @usableFromInline
  func processQueuedEvents() {
    lock.lock()
    guard !draining, !stopped, let item = popLocked() else {
      lock.unlock()
      return
    }
    draining = true
    let previousDrainer = fl_current_drainer()
    fl_set_current_drainer(identity)
    let step = prepareLocked(item)
    lock.unlock()
    drain(from: consume step, restoring: previousDrainer)
  }

  // MARK: - Draining

  /// What the draining thread does with one item once the lock is released.
  @usableFromInline
  enum Step {
    case nothing
    case start
    case reduced(event: Event, state: State, before: State?, token: EffectToken, endsEffect: Bool)
    case discarded(Event, DiscardReason, endsEffect: EffectToken?)
    case effectEnded(EffectToken, EffectOutcome)
    case control(feedback: Int32, value: any Sendable)
    case addObserver(StateObserver<State>, State)
    case removeObserver(UInt64)
  }

  /// Turns an item into a step; reduces an event in place. Caller holds
  /// `lock` and is the draining thread.
  @inlinable @inline(__always)
  func prepareLocked(_ item: InboxItem<State, Event>) -> Step {
    switch item {
    case .event(let event, let token):
      return reduceLocked(event, token, endsEffect: false)
    case .finalEvent(let event, let token):
      return reduceLocked(event, token, endsEffect: true)
    case .start:
      return .start
    case .effectEnded(let token, let outcome):
      return .effectEnded(token, outcome)
    case .control(let feedback, let value):
      return .control(feedback: feedback, value: value)
    case .addObserver(let observer):
      return .addObserver(observer, state)
    case .removeObserver(let id):
      return .removeObserver(id)
    }
  }

  /// Reduces `event` in place unless its effect was cancelled. Caller holds
  /// `lock` and is the draining thread.
  @inlinable @inline(__always)
  func reduceLocked(_ event: Event, _ token: EffectToken, endsEffect: Bool) -> Step {
    if token.isEffect, let isLive = runtimes[Int(token.feedback)].liveness, !isLive(token.number) {
      return .discarded(event, .effectCancelled(effectID(of: token)), endsEffect: endsEffect ? token : nil)
    }
    let before = isMonitored ? state : nil
    isReducing = true
    reducer(&state, event)
    isReducing = false
    return .reduced(event: event, state: state, before: before, token: token, endsEffect: endsEffect)
  }

  /// The drain loop. The caller is the draining thread and does not hold
  /// `lock`. When done, the thread-local marker is given back to the system
  /// this thread was draining before (a feedback of one system may send to
  /// another, which then drains on the same thread).
  @inlinable
  func drain(from first: consuming Step, restoring previousDrainer: UnsafeRawPointer?) {
    // The step is consumed, not copied: a copy of the state it holds would
    // outlive the next reduction and make the reducer copy the state.
    var step = consume first
    while true {
      perform(step)
      // Let go of the state the step holds before the next reduction, so
      // that the reducer finds the state's storage unshared and mutates it
      // in place instead of copying it.
      step = .nothing
      lock.lock()
      if stopRequested || stopped {
        finishStopping(restoring: previousDrainer)
        return
      }
      let next: InboxItem<State, Event>
      if inbox.isEmpty, let local = pendingLocal.popFirst() {
        next = local
      } else {
        if !pendingLocal.isEmpty {
          for item in pendingLocal { _ = enqueueLocked(item) }
          pendingLocal.removeAll(keepingCapacity: true)
        }
        guard let item = popLocked() else {
          draining = false
          fl_set_current_drainer(previousDrainer)
          lock.unlock()
          return
        }
        next = item
      }
      step = prepareLocked(next)
      lock.unlock()
    }
  }

  /// Stops from inside the drain: the caller holds `lock` and is the
  /// draining thread.
  @usableFromInline
  func finishStopping(restoring previousDrainer: UnsafeRawPointer?) {
    stopped = true
    let leftovers = inbox
    inbox.removeAll()
    queuedEvents = 0
    lock.unlock()
    tearDown(discarding: pendingLocal + leftovers)
    pendingLocal.removeAll()
    lock.lock()
    draining = false
    fl_set_current_drainer(previousDrainer)
    lock.unlock()
  }

  /// Runs one step outside the lock, on the draining thread.
  @inlinable @inline(__always)
  func perform(_ step: Step) {
    switch step {
    case .reduced(let event, let state, let before, let token, let endsEffect):
      if isMonitored, let before { reportReduction(event, from: before, to: state, token: token) }
      if endsEffect { runtimes[Int(token.feedback)].effectEnded(token.number, outcome: .finished) }
      for handler in stateHandlers { handler(state) }
      for handler in eventHandlers { handler(event, state) }
      for observer in observers { observer.receive(state) }
    default:
      performRare(step)
    }
  }

  @usableFromInline
  func reportReduction(_ event: Event, from before: State, to state: State, token: EffectToken) {
    monitor?.receive(.reduced(event: event, from: before, to: state, source: source(of: token)))
  }

  /// The steps that are not reductions: rare, so not worth specializing.
  @usableFromInline
  func performRare(_ step: Step) {
    switch step {
    case .nothing, .reduced:
      return
    case .start:
      let initial = state
      for runtime in runtimes { runtime.start() }
      monitor?.receive(.started(initial: initial))
      for handler in stateHandlers { handler(initial) }
      for observer in observers { observer.receive(initial) }
    case .discarded(let event, let reason, let endsEffect):
      monitor?.receive(.eventDiscarded(event, reason: reason))
      if let token = endsEffect { runtimes[Int(token.feedback)].effectEnded(token.number, outcome: .finished) }
    case .effectEnded(let token, let outcome):
      guard !tornDown else { return }
      runtimes[Int(token.feedback)].effectEnded(token.number, outcome: outcome)
    case .control(let feedback, let value):
      guard !tornDown else { return }
      runtimes[Int(feedback)].onControl(value)
    case .addObserver(let observer, let current):
      observers.append(observer)
      observer.receive(current)
    case .removeObserver(let id):
      if let index = observers.firstIndex(where: { $0.id == id }) {
        observers.remove(at: index).stopped()
      }
    }
  }

  @usableFromInline
  func effectID(of token: EffectToken) -> EffectID {
    runtimes[Int(token.feedback)].effectID(token.number)
  }

  @usableFromInline
  func source(of token: EffectToken) -> EventSource {
    if token.isExternal { return .external }
    let runtime = runtimes[Int(token.feedback)]
    return token.isEffect ? .effect(runtime.effectID(token.number)) : .feedback(runtime.id)
  }

  // MARK: - Starting and stopping

  /// Delivers the initial state to every feedback and starts the inputs (G1).
  @inlinable
  func start(callerIsMainActor: Bool) {
    submit(.start, callerIsMainActor: callerIsMainActor)
  }

  /// Stops the system: every effect and input is cancelled, every observer
  /// finished, and no event is reduced afterwards (G9).
  @usableFromInline
  func stop() {
    if isDrainingThread {
      stopRequested = true
      return
    }
    lock.lock()
    if stopped {
      lock.unlock()
      return
    }
    stopped = true
    if draining {
      // The draining thread tears down at its next step.
      lock.unlock()
      return
    }
    draining = true
    let leftovers = inbox
    inbox.removeAll()
    queuedEvents = 0
    lock.unlock()
    let previous = fl_current_drainer()
    fl_set_current_drainer(identity)
    tearDown(discarding: leftovers)
    fl_set_current_drainer(previous)
    lock.withLock { draining = false }
  }

  @usableFromInline
  func tearDown(discarding leftovers: Deque<InboxItem<State, Event>>) {
    guard !tornDown else { return }
    tornDown = true
    for runtime in runtimes { runtime.stop() }
    for observer in observers { observer.stopped() }
    observers.removeAll()
    if let monitor {
      for event in leftovers.compactMap(\.event) {
        monitor.receive(.eventDiscarded(event, reason: .systemStopped))
      }
      monitor.receive(.stopped)
    }
    for case .addObserver(let observer) in leftovers { observer.stopped() }
    // Effects' tasks hold this core until they end; release the feedbacks'
    // closures now rather than then.
    runtimes.removeAll()
    stateHandlers.removeAll()
    eventHandlers.removeAll()
  }

  // MARK: - Reading and observing

  /// The current state. On the draining thread, between reductions, it is
  /// read without the lock: nobody else writes it.
  @inlinable
  var currentState: State {
    if isDrainingThread {
      precondition(!isReducing, "FeedbackLoop: a reducer read the system's state; reducers receive it as a parameter")
      return state
    }
    return lock.withLock { state }
  }

  @usableFromInline
  var isStopped: Bool { lock.withLock { stopped } }

  /// The number of this system's effect and input tasks that have not ended.
  @usableFromInline
  var runningTaskCount: Int { lock.withLock { runningTasks } }

  /// Registers an observer; it receives the current state first, then every
  /// later one, on the loop's thread. Returns its id for ``removeObserver(_:)``.
  @usableFromInline
  func addObserver(
    _ receive: @escaping @Sendable (State) -> Void,
    stopped: @escaping @Sendable () -> Void,
    callerIsMainActor: Bool
  ) -> UInt64 {
    let id = lock.withLock {
      nextObserverID += 1
      return nextObserverID
    }
    submitControl(
      .addObserver(StateObserver(id: id, receive: receive, stopped: stopped)), callerIsMainActor: callerIsMainActor)
    return id
  }

  @usableFromInline
  func removeObserver(_ id: UInt64) {
    submitControl(.removeObserver(id), callerIsMainActor: false)
  }

  /// Like ``submit(_:)`` for work that is not an event: a stopped system
  /// tells the observer it stopped instead of dropping it silently.
  @usableFromInline
  func submitControl(_ item: InboxItem<State, Event>, callerIsMainActor: Bool) {
    if !isDrainingThread, isStopped {
      if case .addObserver(let observer) = item { observer.stopped() }
      return
    }
    submit(item, callerIsMainActor: callerIsMainActor)
  }

  // MARK: - Tasks

  /// Starts a task for an effect or an input, on the environment's executor.
  @inlinable
  func spawn(
    priority: TaskPriority? = nil,
    executor preferred: (any Sendable)? = nil,
    _ operation: @escaping @Sendable () async -> Void
  ) -> Task<Void, Never> {
    fl_live_tasks_increment()
    lock.withLock { runningTasks += 1 }
    let body: @Sendable () async -> Void = { [self] in
      await operation()
      lock.withLock { runningTasks -= 1 }
      fl_live_tasks_decrement()
    }
    if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *),
      let executor = (preferred ?? environment.effectExecutorStorage) as? any TaskExecutor
    {
      return Task(executorPreference: executor, priority: priority, operation: body)
    }
    return Task(priority: priority, operation: body)
  }

  /// Runs an effect's operation in a task; its events carry `token`.
  @inlinable
  func spawnEffect(
    _ token: EffectToken,
    options: EffectTaskOptions,
    body: @escaping @Sendable (Send<Event>) async throws -> Event?,
    catch handler: (@Sendable (any Error) -> Event?)?
  ) -> Task<Void, Never> {
    spawn(priority: options.priority, executor: options.executor) { [self] in
      let send = Send<Event>(clock: environment.clock) { [self] event in
        receive(event, from: token)
      }
      do {
        if let final = try await body(send) {
          submit(.finalEvent(final, token), callerIsMainActor: false)
        } else {
          effectEnded(token, outcome: .finished)
        }
      } catch {
        if Task.isCancelled {
          effectEnded(token, outcome: .cancelled)
        } else if let event = handler?(error) {
          submit(.finalEvent(event, token), callerIsMainActor: false)
        } else {
          effectEnded(token, outcome: .failed(error))
        }
      }
    }
  }

  /// Runs a feedback's own long-lived task (an input, a stream of states).
  /// Its events are never cancelled; their source is the feedback. An error
  /// it throws is reported as the feedback's effect 0.
  @usableFromInline
  func spawnFeedbackTask(
    _ feedback: FeedbackID,
    _ body: @escaping @Sendable (Send<Event>) async throws -> Void
  ) -> Task<Void, Never> {
    let token = EffectToken.feedbackTask(feedback)
    return spawn { [self] in
      let send = Send<Event>(clock: environment.clock) { [self] event in
        receive(event, from: token)
      }
      do {
        try await body(send)
      } catch {
        if !Task.isCancelled { effectEnded(token, outcome: .failed(error)) }
      }
    }
  }

  /// Reports an error that no `catch` turned into an event (G12).
  @usableFromInline
  func reportUnmappedError(_ error: any Error, of effect: EffectID) {
    environment.logger.error(
      "effect failed and its error is not mapped to an event",
      metadata: ["effect": "\(effect)", "error": "\(error)"])
    monitor?.receive(.effectFailed(effect, error))
  }
}
