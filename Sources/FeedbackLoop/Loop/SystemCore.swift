import CFeedbackLoopShims
import DequeModule
import Logging

/// The engine of a running system: a queue of work, a control word, and the
/// rule of who drains the queue.
///
/// ## The drain
///
/// At most one thread at a time *owns* the loop. The owner drains it: it
/// reduces one event, fans the new state out to the feedbacks and then to
/// the observers, and takes the next item, until nothing is left. Whoever
/// sends to an idle system becomes the owner (for ``SystemIsolation/mainActor``,
/// only a caller on the main actor may; others queue and schedule one hop to
/// it). A send that arrives while the system is busy only enqueues, and
/// returns: a send from inside the reducer, a feedback or an observer is
/// therefore never re-entrant and never deadlocks (G2).
///
/// The owning thread is marked in a thread-local variable. Its own sends go
/// to `pendingLocal`, which only it touches, so that a feedback answering a
/// state at once costs no lock and no atomic operation but one load of the
/// control word (see "The order of events" below).
///
/// ## The order of events
///
/// The rule (G2): if the send of `a` happens before the send of `b` (the
/// same thread sent both, or `b`'s sender learnt of `a`'s send through any
/// synchronization: a thread joined, a lock, another system's loop), then
/// `a` is reduced before `b`. Sends that overlap in time may be reduced in
/// either order, but each sender's events stay in its order. The same holds
/// for every item of the queue (an effect's end, an observer's arrival).
///
/// Two queues hold waiting work: `pendingLocal`, which only the owner
/// touches, and the shared `inbox`. The rule holds because of one
/// invariant: every item in `pendingLocal` was sent before every item in the
/// inbox.
///
/// - A send from another thread goes to the inbox, at its end, under
///   `lock`, and sets `queued`.
/// - The owner's own send (a reducer, feedback or observer sending to its
///   system) goes to the inbox if the event buffer is bounded, so that the
///   limit counts it (G14). Otherwise it reads the word once: if neither
///   `queued` nor `stopped` is set,
///   the inbox is empty, so the item goes to `pendingLocal`, ahead of
///   whatever other threads send later; otherwise it goes to the inbox,
///   behind what they sent first (`enqueueFromLoop`). Only the owner clears
///   `queued`, so what it read stays true until it appends.
/// - The owner takes `pendingLocal` first, and the inbox only when
///   `pendingLocal` is empty (`drain`, `takeFromOtherThreads`).
///
/// A send through another system on the owner's thread (a feedback of A
/// sends to B, whose observer sends to A) is a send from another thread as
/// far as A is concerned: A's marker is not current while B drains, so it
/// goes to A's inbox, behind what A queued before.
///
/// ## The control word
///
/// One atomic word says who owns the loop and what waits for the owner:
/// `owned`, `queued` (the shared inbox holds work) and `stopped`. A send to
/// an idle system
/// takes the loop with one compare-and-swap from 0, and the owner lets it go
/// with one compare-and-swap back to 0, which fails if any other bit was set
/// meanwhile: the owner then handles what the bit says before trying again.
/// So an event sent to an idle system costs two atomic operations, and a
/// round trip through a feedback none: the owner only reads the word.
///
/// ## What belongs to whom
///
/// `state`, the feedback runtimes, observers, `pendingLocal` and `isReducing`
/// belong to the owner: only the thread that set `owned` touches them, and
/// the word's acquire and release order those accesses. `lock` guards
/// `inbox`, `queuedEvents`, `mainDrainScheduled`, `nextObserverID` and
/// `runningTasks`; `queued` is set and cleared under it, so that it is set
/// exactly while the inbox holds work.
///
/// The one exception is the state, which other threads may read. The owner
/// mutates it in place, so that a large state is never copied to be reduced.
/// A reader on another thread copies it while the loop is idle, or gets a
/// copy the owner publishes at its next step; it never makes the owner wait
/// for more than a copy (G15; SystemCore+Reads.swift). `stop()` from another
/// thread waits for a running reducer through the reduction guard
/// (`fl_reduce_begin` / `fl_reduce_end`), which costs the owner no atomic
/// operation on Linux: the stopper pays with one `membarrier` system call
/// (see CFeedbackLoopShims).
///
/// ## Why not an actor
///
/// An actor would make every send from outside an `await` and a hop, and a
/// main-actor system could not reduce before `send` returns. The control
/// word keeps a send to an idle system at two atomic operations, with no
/// task and no allocation (see BENCHMARKS.md).
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
  // by the thread that owns the loop, as described above.

  @usableFromInline let environment: SystemEnvironment
  @usableFromInline let monitor: SystemMonitor<State, Event>?
  /// Whether there is a monitor: tested on the hot path, where reading the
  /// optional monitor itself would retain and release its closure.
  @usableFromInline let isMonitored: Bool
  /// Whether the event buffer has a limit: then the owner's own sends go
  /// to the inbox too, where the limit counts them (G14).
  @usableFromInline let isBounded: Bool
  @usableFromInline let isolation: SystemIsolation
  // Owned by the thread that owns the loop; next to the other one-byte
  // fields, so that they share a word (W4).
  @exclusivity(unchecked) @usableFromInline var isReducing = false
  @exclusivity(unchecked) @usableFromInline var tornDown = false
  /// Guarded by `lock`.
  @exclusivity(unchecked) @usableFromInline var mainDrainScheduled = false
  @usableFromInline let reducer: @Sendable (inout State, Event) -> Void
  /// The lock, the control word and the feedbacks' watermarks, in one
  /// allocation of their own: they need stable addresses.
  @usableFromInline let control: UnsafeMutablePointer<fl_loop_control>
  /// Per feedback: its effects numbered up to this one are cancelled, and
  /// their events dropped (G4). `UInt64.max`: ask the runtime (keyed
  /// feedbacks cancel effects one by one). Plain memory, so that checking an
  /// event costs one comparison and no reference counting.
  @usableFromInline let watermarks: UnsafeMutablePointer<UInt64>

  /// The control word: the first field of `control`.
  @inlinable
  var word: UnsafeMutablePointer<UInt64> { UnsafeMutableRawPointer(control).assumingMemoryBound(to: UInt64.self) }

  @inlinable
  var identity: UnsafeRawPointer { UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque()) }

  // Guarded by `lock`. Their accesses are exclusive by construction (the
  // lock, or the single owner), so Swift's dynamic exclusivity checks, a
  // fifth of the time of an event, are turned off for them.
  @exclusivity(unchecked) @usableFromInline var inbox = Deque<InboxItem<State, Event>>()
  @exclusivity(unchecked) @usableFromInline var queuedEvents = 0
  @exclusivity(unchecked) @usableFromInline var nextObserverID: UInt64 = 0
  @exclusivity(unchecked) @usableFromInline var runningTasks = 0
  /// The copy of the state the owner last published to readers on other
  /// threads, and how many of them wait for it (SystemCore+Reads.swift).
  @exclusivity(unchecked) @usableFromInline var published: State?
  @exclusivity(unchecked) @usableFromInline var waitingReaders = 0

  // Owned by the thread that owns the loop.
  /// The state, out of line: the loop's thread destroys it when the
  /// ``System`` is released, while an ``Input`` may still hold this core
  /// (see ``systemReleased()``).
  @usableFromInline let stateStorage: UnsafeMutablePointer<State>
  /// Whether `stateStorage` was destroyed; owned by the loop's thread.
  @exclusivity(unchecked) @usableFromInline var stateDestroyed = false
  /// The state, mutated in place through its storage.
  @inlinable
  var state: State {
    unsafeAddress { UnsafePointer(stateStorage) }
    unsafeMutableAddress { stateStorage }
  }
  @exclusivity(unchecked) @usableFromInline var runtimes: [FeedbackRuntime<State, Event>] = []
  /// The feedbacks' handlers and the observers, in chains that retain their
  /// links (see ``StateLink`` and ``Linked``).
  @exclusivity(unchecked) @usableFromInline var firstStateLink: Unmanaged<StateLink<State>>?
  @exclusivity(unchecked) @usableFromInline var firstEventLink: Unmanaged<EventLink<State, Event>>?
  @exclusivity(unchecked) @usableFromInline var firstObserver: Unmanaged<StateObserver<State>>?
  @exclusivity(unchecked) @usableFromInline var pendingLocal = LocalQueue<InboxItem<State, Event>>()

  @usableFromInline
  init(
    initial: consuming State,
    reducer: @escaping @Sendable (inout State, Event) -> Void,
    feedbacks: [Feedback<State, Event>],
    isolation: SystemIsolation,
    environment: SystemEnvironment,
    monitor: SystemMonitor<State, Event>?
  ) {
    stateStorage = UnsafeMutablePointer<State>.allocate(capacity: 1)
    stateStorage.initialize(to: consume initial)
    self.reducer = reducer
    self.isolation = isolation
    self.environment = environment
    self.monitor = monitor
    self.isMonitored = monitor != nil
    self.isBounded = environment.eventBuffer != .unbounded
    let controlSize = MemoryLayout<fl_loop_control>.stride
    let memory = UnsafeMutableRawPointer.allocate(
      byteCount: controlSize + MemoryLayout<UInt64>.stride * max(feedbacks.count, 1),
      alignment: max(MemoryLayout<fl_loop_control>.alignment, MemoryLayout<UInt64>.alignment))
    control = memory.bindMemory(to: fl_loop_control.self, capacity: 1)
    switch environment.eventBuffer {
    case .unbounded: break
    case .dropNewest(let limit), .dropOldest(let limit):
      precondition(limit >= 0, "FeedbackLoop: an event buffer limit must be 0 or more, not \(limit)")
    }
    fl_loop_control_init(control)
    watermarks = (memory + controlSize).bindMemory(to: UInt64.self, capacity: max(feedbacks.count, 1))
    watermarks.initialize(repeating: 0, count: max(feedbacks.count, 1))
    runtimes.reserveCapacity(feedbacks.count)
    SharedHandlers.whileMaking {
      for (index, feedback) in feedbacks.enumerated() {
        let runtime = feedback.makeRuntime(FeedbackID(index: index, label: feedback.label), self)
        runtimes.append(runtime)
      }
    }
  }

  deinit {
    StateLink.releaseChain(&firstStateLink)
    EventLink.releaseChain(&firstEventLink)
    StateObserver.releaseChain(&firstObserver)
    pendingLocal.deallocate()
    if !stateDestroyed { stateStorage.deinitialize(count: 1) }
    stateStorage.deallocate()
    fl_loop_control_destroy(control)
    UnsafeMutableRawPointer(control).deallocate()
  }

  // MARK: - The lock and the control word

  @inlinable @inline(__always)
  func lock() { fl_lock_lock(&control.pointee.lock) }

  @inlinable @inline(__always)
  func unlock() { fl_lock_unlock(&control.pointee.lock) }

  @inlinable @inline(__always)
  func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
    lock()
    defer { unlock() }
    return try body()
  }

  /// The bits of the control word.
  @usableFromInline
  enum Control {
    /// A thread owns the loop: it drains, reads the state, or tears down.
    @inlinable static var owned: UInt64 { 1 }
    /// The shared inbox holds work. Set and cleared under `lock`.
    @inlinable static var queued: UInt64 { 2 }
    /// The system stopped, or is stopping: for good.
    @inlinable static var stopped: UInt64 { 4 }
    /// A reader on another thread, under `lock`: with `owned`, it waits for
    /// the owner to publish a copy of the state; without, it copies the
    /// state of the idle loop, which nobody may take meanwhile
    /// (SystemCore+Reads.swift).
    @inlinable static var reader: UInt64 { 8 }
    /// The ``System`` was released (set after `stopped`): the owner that
    /// lets the stopped loop go destroys the state (``systemReleased()``).
    @inlinable static var released: UInt64 { 16 }
  }

  /// Takes the loop unless another thread owns it; returns whether it did.
  /// Waits while a reader copies the state of the idle loop (`reader`
  /// without `owned`), which takes no longer than the copy; never under
  /// `lock`, which that reader holds.
  @inlinable
  func acquire() -> Bool {
    var current = fl_word_load(word)
    while current & Control.owned == 0 {
      if current & Control.reader != 0 {
        fl_yield()
      } else if fl_word_exchange_if(word, current, current | Control.owned) {
        return true
      }
      current = fl_word_load(word)
    }
    return false
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
    submit(.control(ControlValue(feedback: feedback, value: value)), callerIsMainActor: false)
  }

  /// Queues events behind everything already queued, even from the owning
  /// thread (an ``Input`` hands over the events it kept before binding).
  @usableFromInline
  func enqueueShared(_ events: [Event]) {
    guard !events.isEmpty else { return }
    lock()
    var dropped: [Event] = []
    for event in events {
      if let event = enqueueLocked(.event(event, .external)) { dropped.append(event) }
    }
    unlock()
    for event in dropped { monitor?.receive(.eventDiscarded(event, reason: .bufferFull)) }
  }

  /// Enqueues work the owning thread sends to its own loop (a runtime, or a
  /// send from the reducer, a feedback or an observer), in its place in the
  /// order of sends (G2; see "The order of events" above).
  ///
  /// One atomic load: while no other thread queued work and the system is
  /// not stopping, the item goes to `pendingLocal`, ahead of anything other
  /// threads queue later; otherwise behind what they queued first.
  ///
  /// A bounded buffer takes every item through the inbox: its limit counts
  /// the loop's own sends as it counts other threads' (G14), which an
  /// unbounded `pendingLocal` would not. Non-events go there too, so that
  /// they keep their place among the events (G2).
  @inlinable @inline(__always)
  func enqueueFromLoop(_ item: consuming InboxItem<State, Event>) {
    if !isBounded, fl_word_load(word) & (Control.queued | Control.stopped) == 0 {
      pendingLocal.append(item)
    } else {
      enqueueFromLoopBehindOthers(item)
    }
  }

  /// The owning thread's send when other threads queued work first, the
  /// buffer is bounded, or the system is stopping or torn down.
  @usableFromInline
  func enqueueFromLoopBehindOthers(_ item: InboxItem<State, Event>) {
    if tornDown || isStopping {
      // Sent after `stop()` (from the rest of the pass, an `onStop`
      // handler, the monitor's `.stopped`): refused at once, as another
      // thread's send is, so that a bounded buffer's limit does not report
      // it `bufferFull` instead (G14), and a new observer is told at once
      // (G9).
      reportRefusedAtStop(item)
      return
    }
    lock()
    // `queued` is cleared only by the owner (this thread), under the lock:
    // seen set, the inbox still holds what other threads sent first.
    let dropped = enqueueLocked(item)
    unlock()
    if let dropped { monitor?.receive(.eventDiscarded(dropped, reason: .bufferFull)) }
  }

  /// Accounts for an item that reached a stopped system: an event is
  /// reported discarded, an observer told the system stopped.
  @usableFromInline
  func reportRefusedAtStop(_ item: InboxItem<State, Event>) {
    if let event = item.event { monitor?.receive(.eventDiscarded(event, reason: .systemStopped)) }
    if case .addObserver(let observer) = item { observer.stopped() }
  }

  /// Handles `item` at once when this thread may and the system is idle (one
  /// atomic operation takes the loop); otherwise queues it.
  @inlinable
  func submit(_ item: InboxItem<State, Event>, callerIsMainActor: Bool) {
    if mayDrain(callerIsMainActor: callerIsMainActor), fl_word_load(word) == 0,
      fl_word_exchange_if(word, 0, Control.owned)
    {
      let previousDrainer = fl_current_drainer()
      fl_set_current_drainer(identity)
      process(item)
      drain(restoring: previousDrainer)
      return
    }
    submitToBusySystem(item, callerIsMainActor: callerIsMainActor)
  }

  /// A send to a system that is owned, stopped, or holds queued work.
  @inlinable
  func submitToBusySystem(_ item: InboxItem<State, Event>, callerIsMainActor: Bool) {
    if isDrainingThread {
      enqueueFromLoop(item)
      return
    }
    lock()
    if fl_word_load(word) & Control.stopped != 0 {
      unlock()
      // An observer added while another thread stopped the system passed
      // `submitControl`'s check before `stopped` was set: tell it here, or
      // its `onStop` is never called and its state sequence never finishes
      // (ControlWordTests, "G9 observe() races with stop()").
      reportRefusedAtStop(item)
      return
    }
    let dropped = enqueueLocked(item)
    // Read after `queued` was set: an owner seen here sees `queued` when it
    // tries to let the loop go, and takes the item.
    let current = fl_word_set(word, 0)
    if current & Control.owned != 0 {
      unlock()
      if let dropped { monitor?.receive(.eventDiscarded(dropped, reason: .bufferFull)) }
      return
    }
    if mayDrain(callerIsMainActor: callerIsMainActor) {
      guard acquire() else {
        // Another thread took the loop meanwhile (`stop()`,
        // `processQueuedEvents()`): it sees `queued`, and takes the item.
        unlock()
        if let dropped { monitor?.receive(.eventDiscarded(dropped, reason: .bufferFull)) }
        return
      }
      // What was queued before (a main-actor system's items sent from other
      // threads) goes first.
      let first = popLocked()
      unlock()
      if let dropped { monitor?.receive(.eventDiscarded(dropped, reason: .bufferFull)) }
      let previousDrainer = fl_current_drainer()
      fl_set_current_drainer(identity)
      if let first { process(first) }
      drain(restoring: previousDrainer)
      return
    }
    let schedule = !mainDrainScheduled && !inbox.isEmpty
    if schedule { mainDrainScheduled = true }
    unlock()
    if let dropped { monitor?.receive(.eventDiscarded(dropped, reason: .bufferFull)) }
    if schedule { scheduleMainDrain() }
  }

  /// Appends to the shared queue under the buffer policy and sets `queued`;
  /// returns the event dropped to respect the policy, if any. Caller holds
  /// `lock`.
  ///
  /// Only events count against the bound. An effect's final event that is
  /// dropped still ends its effect: it leaves an `effectEnded` in its place.
  @inlinable
  func enqueueLocked(_ item: InboxItem<State, Event>) -> Event? {
    let dropped = appendLocked(item)
    if !inbox.isEmpty { _ = fl_word_set(word, Control.queued) }
    return dropped
  }

  @inlinable
  func appendLocked(_ item: InboxItem<State, Event>) -> Event? {
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
      if limit == 0 {
        // Keeps none: the event just sent is the one dropped.
        if case .finalEvent(_, let token) = item { inbox.append(.effectEnded(token, .finished)) }
        return item.event
      }
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

  /// Takes the first queued item; clears `queued` when none is left. Caller
  /// holds `lock`.
  @inlinable
  func popLocked() -> InboxItem<State, Event>? {
    let item = inbox.popFirst()
    if let item, item.isEvent { queuedEvents -= 1 }
    if inbox.isEmpty { _ = fl_word_clear(word, Control.queued) }
    return item
  }

  @usableFromInline
  func scheduleMainDrain() {
    Task { @MainActor in self.drainOnMainActor() }
  }

  func drainOnMainActor() {
    withLock { mainDrainScheduled = false }
    processQueuedEvents()
  }

  /// Drains what is queued, now, unless another thread owns the loop (it
  /// drains it then). The caller is on the main actor (for a main-actor
  /// system) or anywhere (for its own).
  @usableFromInline
  func processQueuedEvents() {
    guard fl_word_load(word) & (Control.queued | Control.owned) == Control.queued, acquire() else { return }
    let previousDrainer = fl_current_drainer()
    fl_set_current_drainer(identity)
    drain(restoring: previousDrainer)
  }

  // MARK: - Draining

  /// Handles one item: reduces an event in place and fans the new state out,
  /// or does the loop's other work. The caller owns the loop.
  @inlinable @inline(__always)
  func process(_ item: consuming InboxItem<State, Event>) {
    // Consumed, not copied, like the effects (see EffectfulRuntime.start).
    switch consume item {
    case .event(let event, let token):
      processEvent(event, token, endsEffect: false)
    case .finalEvent(let event, let token):
      processEvent(event, token, endsEffect: true)
    case let other:
      processRare(other)
    }
  }

  /// Reduces `event` in place, unless its effect was cancelled, then gives
  /// the new state to the feedbacks, then to the observers (G3).
  @inlinable @inline(__always)
  func processEvent(_ event: Event, _ token: EffectToken, endsEffect: Bool) {
    if token.isEffect, token.number <= watermarks[Int(token.feedback)], isCancelled(token) {
      discard(event, token, endsEffect: endsEffect)
      return
    }
    if isMonitored {
      guard reduceMonitored(event, token) else { return putBack(event, token, endsEffect: endsEffect) }
    } else {
      guard beginReduction() else { return putBack(event, token, endsEffect: endsEffect) }
      isReducing = true
      reducer(&state, event)
      fl_reduce_end(control)
      isReducing = false
      publishIfAsked()
    }
    if endsEffect { runtimes[Int(token.feedback)].effectEnded(token.number, outcome: .finished) }
    // One copy of the state for the whole fan-out, lent to each handler:
    // reading the stored property per handler retained and released the
    // state's storage for each (W3: most of its time with 100 feedbacks).
    // It is let go before the next reduction, which finds the storage
    // unshared.
    //
    // The reducer, the monitor's `.reduced` report or a handler may stop
    // the system (`stop()` in a query): the pass ends before the next
    // handler, so that no later feedback starts an effect and no observer
    // sees a state after `stop()` returned (G9). One load of the word
    // before each handler, a plain load on x86 and ARM.
    let current = state
    var stateLink = firstStateLink
    while let link = stateLink {
      if isStopping { return }
      stateLink = link._withUnsafeGuaranteedRef {
        $0.call(current)
        return $0.next
      }
    }
    var eventLink = firstEventLink
    while let link = eventLink {
      if isStopping { return }
      eventLink = link._withUnsafeGuaranteedRef {
        $0.call(event, current)
        return $0.next
      }
    }
    notifyObservers(current)
  }

  /// Whether `stop()` was called, from any thread: read between two
  /// handlers of a pass.
  @inlinable @inline(__always)
  var isStopping: Bool { fl_word_load(word) & Control.stopped != 0 }

  /// Gives `state` to every observer, in the order they came.
  @inlinable @inline(__always)
  func notifyObservers(_ state: State) {
    var observer = firstObserver
    while let link = observer {
      if isStopping { return }
      observer = link._withUnsafeGuaranteedRef {
        $0.receive(state)
        return $0.next
      }
    }
  }

  /// Reduces with a copy of the state before, for the monitor; returns
  /// `false`, reducing nothing, if the system stopped.
  @inlinable
  func reduceMonitored(_ event: Event, _ token: EffectToken) -> Bool {
    let before = state
    guard beginReduction() else { return false }
    isReducing = true
    reducer(&state, event)
    fl_reduce_end(control)
    isReducing = false
    publishIfAsked()
    reportReduction(event, from: before, to: state, token: token)
    return true
  }

  /// Enters the reduction guard unless the system stopped; returns whether
  /// it did.
  ///
  /// `stop()` from another thread sets `stopped` from the reader's side of
  /// the guard (`fl_word_set_between_reductions`): it waits for a reduction
  /// in progress, and a reduction that begins later sees `stopped` here. So
  /// no reducer runs after `stop()` returns, as under the old core's lock
  /// (G9; ControlWordTests, "G9 stop() races with 8 sending threads"). The
  /// step-boundary checks in `drain` alone leave a window: between the check
  /// and the reducer, and the whole reduction that was running.
  @inlinable @inline(__always)
  func beginReduction() -> Bool {
    fl_reduce_begin(control)
    if fl_word_load(word) & Control.stopped == 0 { return true }
    fl_reduce_end(control)
    return false
  }

  /// An event that met `stopped` at the guard goes back to the front of the
  /// owner's queue: the next step boundary tears down and reports it
  /// discarded with the rest.
  @usableFromInline
  func putBack(_ event: Event, _ token: EffectToken, endsEffect: Bool) {
    pendingLocal.prepend(endsEffect ? .finalEvent(event, token) : .event(event, token))
  }

  /// Whether the effect of `token`, at or under its feedback's watermark,
  /// is cancelled.
  @usableFromInline
  func isCancelled(_ token: EffectToken) -> Bool {
    watermarks[Int(token.feedback)] != .max || !runtimes[Int(token.feedback)].isLive(token.number)
  }

  @usableFromInline
  func discard(_ event: Event, _ token: EffectToken, endsEffect: Bool) {
    monitor?.receive(.eventDiscarded(event, reason: .effectCancelled(effectID(of: token))))
    if endsEffect { runtimes[Int(token.feedback)].effectEnded(token.number, outcome: .finished) }
  }

  /// The drain loop: handles what this thread and others queued until
  /// nothing is left, then lets the loop go. The caller owns the loop and
  /// has marked its thread; when done, the thread-local marker is given back
  /// to the system this thread was draining before (a feedback of one
  /// system may send to another, which then drains on the same thread).
  @inlinable
  func drain(restoring previousDrainer: UnsafeRawPointer?) {
    while true {
      if fl_word_load(word) == Control.owned {
        if let local = pendingLocal.popFirst() {
          process(local)
          continue
        }
        if fl_word_exchange_if(word, Control.owned, 0) {
          fl_set_current_drainer(previousDrainer)
          return
        }
        continue
      }
      switch takeFromOtherThreads(restoring: previousDrainer) {
      case .item(let item): process(item)
      case .lookAgain: continue
      case .letGo: return
      }
    }
  }

  /// What a step boundary found in the control word.
  @usableFromInline
  enum Interruption {
    case item(InboxItem<State, Event>)
    case lookAgain
    case letGo
  }

  /// A step boundary where the control word holds more than `owned`: the
  /// system stops, or other threads queued work. Returns `.letGo` once the
  /// loop is let go (the thread marker given back).
  @inlinable
  func takeFromOtherThreads(restoring previousDrainer: UnsafeRawPointer?) -> Interruption {
    let current = fl_word_load(word)
    if current & Control.stopped != 0 {
      finishStopping(restoring: previousDrainer)
      return .letGo
    }
    // A reader on another thread waits for this step (G15).
    if current & Control.reader != 0 { publish() }
    // What this thread queued in `pendingLocal` was sent before anything
    // in the inbox: it goes first (G2; see "The order of events" above).
    if let local = pendingLocal.popFirst() { return .item(local) }
    guard current & Control.queued != 0 else { return .lookAgain }
    lock()
    let next = popLocked()
    unlock()
    return next.map { .item($0) } ?? .lookAgain
  }

  /// Stops from inside the drain: the caller owns the loop.
  @usableFromInline
  func finishStopping(restoring previousDrainer: UnsafeRawPointer?) {
    lock()
    _ = fl_word_set(word, Control.stopped)
    let leftovers = inbox
    inbox.removeAll()
    queuedEvents = 0
    _ = fl_word_clear(word, Control.queued)
    unlock()
    var discarded = Deque(pendingLocal.takeAll())
    discarded.append(contentsOf: leftovers)
    tearDown(discarding: discarded)
    releaseAfterStopping()
    fl_set_current_drainer(previousDrainer)
  }

  /// Clears `owned` for a stopped loop, whatever else is set, answering a
  /// reader that waits first; destroys the state first if the
  /// ``System`` was released. `released` is set with a compare-and-swap
  /// while another thread owns the loop, so either this loop sees it, or
  /// its own compare-and-swap fails and it looks again: an owner never lets
  /// the loop go without seeing a release that came before.
  @usableFromInline
  func releaseAfterStopping() {
    while true {
      let current = fl_word_load(word)
      if current & Control.reader != 0 {
        publish()
        continue
      }
      if current & Control.released != 0 { destroyState() }
      if fl_word_exchange_if(word, current, current & ~Control.owned) { return }
    }
  }

  /// Called by ``System``'s deinitializer, after `stop`: nothing a released
  /// system owned may outlive it, though an ``Input`` bound to it keeps this
  /// core (its target holds the core strongly, so that a send through it
  /// costs no reference counting; W1). The state, and the copies published
  /// to readers, are destroyed by whoever owns the stopped loop: this thread
  /// now if the loop is free, else the owner when it lets the loop go. After
  /// this, nothing reads the state: nobody holds the ``System`` to read it,
  /// a send is refused as `systemStopped` under `lock` (G14), and the
  /// feedbacks and observers are gone with the teardown.
  @usableFromInline
  func systemReleased() {
    while true {
      let current = fl_word_load(word)
      if current & Control.owned != 0 {
        // Another thread, or this one inside its own loop (a system released
        // from its observer), tears down at its next step and destroys the
        // state when it lets the loop go (`releaseAfterStopping`).
        if fl_word_exchange_if(word, current, current | Control.released) { return }
      } else if current & Control.reader != 0 {
        fl_yield()
      } else if fl_word_exchange_if(word, current, current | Control.released | Control.owned) {
        break
      }
    }
    // The loop is this thread's: tear down if no one has yet (a main-actor
    // system's teardown may wait for its hop, which then finds it done).
    let previousDrainer = fl_current_drainer()
    fl_set_current_drainer(identity)
    finishStopping(restoring: previousDrainer)
  }

  /// Destroys the state and drops the published copy; the caller owns the
  /// stopped loop of a released system.
  @usableFromInline
  func destroyState() {
    guard !stateDestroyed else { return }
    stateDestroyed = true
    lock()
    let copy = published
    published = nil
    unlock()
    _ = consume copy
    stateStorage.deinitialize(count: 1)
  }

  @usableFromInline
  func reportReduction(_ event: Event, from before: State, to state: State, token: EffectToken) {
    monitor?.receive(.reduced(event: event, from: before, to: state, source: source(of: token)))
  }

  /// The items that are not events: rare, so not worth specializing.
  @usableFromInline
  func processRare(_ item: InboxItem<State, Event>) {
    switch item {
    case .event, .finalEvent:
      process(item)
    case .start:
      let initial = state
      for runtime in runtimes { runtime.start() }
      monitor?.receive(.started(initial: initial))
      StateLink.forEach(firstStateLink) { $0.call(initial) }
      StateObserver.forEach(firstObserver) { $0.receive(initial) }
    case .effectEnded(let token, let outcome):
      guard !tornDown else { return }
      runtimes[Int(token.feedback)].effectEnded(token.number, outcome: outcome)
    case .control(let control):
      guard !tornDown else { return }
      runtimes[Int(control.feedback)].onControl(control.value)
    case .addObserver(let observer):
      StateObserver.append(observer, to: &firstObserver)
      observer.receive(state)
    case .removeObserver(let id):
      StateObserver.remove(from: &firstObserver, where: { $0.id == id })?.stopped()
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
  /// finished, and no event is reduced afterwards (G9). If another thread
  /// owns the loop, it tears down at its next step.
  ///
  /// The teardown (the runtimes' cancellation, the observers' `onStop`, the
  /// monitor's reports) runs where the loop runs: for a main-actor system
  /// stopped off the main actor (another thread, a release there), one hop
  /// later on the main actor (G10). No event is reduced after this returns,
  /// wherever it is called.
  @usableFromInline
  func stop(callerIsMainActor: Bool = false) {
    if isDrainingThread {
      // From inside the loop (a query, an observer, the reducer): the word
      // says so at once, so `isStopped` is true when this returns, the rest
      // of the pass is skipped (`processEvent`), no reduction begins
      // (`beginReduction`), and the next step boundary tears down.
      _ = fl_word_set(word, Control.stopped)
      return
    }
    // Waits for a reduction running on another thread: none runs after
    // this returns (see `beginReduction`).
    let before = fl_word_set_between_reductions(control, Control.stopped)
    guard before & Control.stopped == 0 else { return }
    guard mayDrain(callerIsMainActor: callerIsMainActor) else {
      Task { @MainActor in self.stopOnMainActor() }
      return
    }
    tearDownUnlessOwned()
  }

  /// The teardown of a main-actor system stopped elsewhere.
  func stopOnMainActor() {
    tearDownUnlessOwned()
  }

  /// Tears down now, unless a thread owns the loop: that one tears down at
  /// its next step, seeing `stopped`.
  @usableFromInline
  func tearDownUnlessOwned() {
    guard acquire() else { return }
    let previousDrainer = fl_current_drainer()
    fl_set_current_drainer(identity)
    finishStopping(restoring: previousDrainer)
  }

  @usableFromInline
  func tearDown(discarding leftovers: Deque<InboxItem<State, Event>>) {
    guard !tornDown else { return }
    tornDown = true
    for runtime in runtimes { runtime.stop() }
    var observers = firstObserver
    firstObserver = nil
    StateObserver.forEach(observers) { $0.stopped() }
    StateObserver.releaseChain(&observers)
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
    StateLink.releaseChain(&firstStateLink)
    EventLink.releaseChain(&firstEventLink)
  }

  // MARK: - Reading and observing

  /// The current state. The owning thread reads it directly; another thread
  /// copies it while the loop is idle, or gets a copy the owner publishes at
  /// its next step (SystemCore+Reads.swift, G15).
  @inlinable
  var currentState: State {
    if isDrainingThread {
      precondition(!isReducing, "FeedbackLoop: a reducer read the system's state; reducers receive it as a parameter")
      return state
    }
    return readFromOtherThread()
  }

  @usableFromInline
  var isStopped: Bool { fl_word_load(word) & Control.stopped != 0 }

  /// The number of this system's effect and input tasks that have not ended.
  @usableFromInline
  var runningTaskCount: Int { withLock { runningTasks } }

  /// Registers an observer; it receives the current state first, then every
  /// later one, on the loop's thread. Returns its id for ``removeObserver(_:)``.
  @usableFromInline
  func addObserver(
    _ receive: @escaping @Sendable (State) -> Void,
    stopped: @escaping @Sendable () -> Void,
    callerIsMainActor: Bool
  ) -> UInt64 {
    let id = withLock {
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
    withLock { runningTasks += 1 }
    let body: @Sendable () async -> Void = { [self] in
      // A task that first runs after `stop()` (started by the pass before,
      // cancelled by the teardown before its executor ran it) ends without
      // running its body: nothing of a stopped system runs (G9). A task
      // that began earlier ends when its body sees its cancellation.
      if !isStopped { await operation() }
      withLock { runningTasks -= 1 }
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
