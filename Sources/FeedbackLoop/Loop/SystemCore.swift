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
///   `lock`, and sets `queued` (only reads it, if it is set already).
/// - The owner's own send (a reducer, feedback or observer sending to its
///   system) goes to the inbox if the event buffer is bounded, so that the
///   limit counts it (G14). Otherwise it reads the word once: if neither
///   `queued` nor `stopped` is set,
///   the inbox is empty, so the item goes to `pendingLocal`, ahead of
///   whatever other threads send later; otherwise it goes to the inbox,
///   behind what they sent first (`enqueueFromLoop`). Only the owner clears
///   `queued`, so what it read stays true until it appends.
/// - The owner takes `pendingLocal` first, and the inbox only when
///   `pendingLocal` is empty (`drain`, `takeFromOtherThreads`). With an
///   unbounded buffer it takes the inbox whole, in one acquisition of the
///   lock, by swapping its buffer with `pendingLocal`'s (`moveAllLocked`):
///   the inbox is then empty, so the invariant holds, and the owner's own
///   sends go behind the batch while `queued` stays clear.
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
/// `inbox`, `mainDrainScheduled`, `nextObserverID` and
/// `runningTasks`; `queued` is set and cleared under it, so that it is set
/// exactly while the inbox holds work.
///
/// The one exception is the state, which other threads may read. The owner
/// mutates it in place, so that a large state is never copied to be reduced.
/// A reader on another thread copies it between two reductions, or gets a
/// copy the owner publishes at its next step; it never makes the owner wait
/// for more than a copy (G15; SystemCore+Reads.swift). `stop()` from another
/// thread waits for a running reducer through the reduction guard
/// (`fl_reduce_begin` / `fl_reduce_end`), which costs the owner no atomic
/// operation on Linux: the stopper pays with one `membarrier` system call
/// (see CFeedbackLoopShims).
///
/// ## Where the parts are
///
/// This file holds what the class stores and carries out the ownership
/// protocol: taking the loop (`submit`, `acquire`), the drain and its step
/// boundaries. What each party does is decided in
/// OwnershipStateMachine.swift, from one reading of the control word, with
/// no memory touched; this file does the atomic operations. The other
/// parts are extensions or values, each in a file of its own that says
/// what it owns and who may touch it:
///
/// - SystemCore+Inbox.swift: the senders' way in;
/// - SystemCore+Layout.swift: where the inbox, the state and the watermarks
///   lie in the control's allocation;
/// - EventInbox.swift: the shared queue and the buffer policy, a value;
/// - SystemCore+FanOut.swift: one step, the reducer, the fan-out to
///   feedbacks and observers, the monitor's `.reduced`;
/// - SystemCore+Effects.swift: effect and input tasks, the watermarks;
/// - SystemCore+Stopping.swift: start, stop, the teardown, the release;
/// - SystemCore+Reads.swift: reads of the state from other threads (G15).
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

  /// Dropped with the state of a released system (`destroyState()`), as
  /// an ``Input`` may keep this core long after. Written by the owner of
  /// the stopped loop under `lock`, so another thread reads it under `lock`
  /// (`submitToBusySystem`); the owner reads it freely.
  @exclusivity(unchecked) @usableFromInline var monitor: SystemMonitor<State, Event>?

  /// Whether there is a monitor: tested on the hot path, where reading the
  /// optional monitor itself would retain and release its closure.
  @usableFromInline let isMonitored: Bool

  /// Whether the event buffer has a limit: then the owner's own sends go
  /// to the inbox too, where the limit counts them (G14).
  @usableFromInline let isBounded: Bool

  @usableFromInline let isolation: SystemIsolation

  // Owned by the thread that owns the loop; next to the other one-byte
  // fields, so that they share a word (the idle-systems benchmark).
  @exclusivity(unchecked) @usableFromInline var isReducing = false

  @exclusivity(unchecked) @usableFromInline var tornDown = false

  /// Whether `stop()` was called from inside the loop (a handler, an
  /// observer, the reducer, the monitor): then the pass under way ends for
  /// the observers too. A stop from another thread ends only the feedbacks'
  /// part (SystemCore+FanOut.swift). Owned by the loop's thread, which is
  /// the only one to call `stop()` from inside.
  @exclusivity(unchecked) @usableFromInline var stoppedFromInside = false

  /// Guarded by `lock`.
  @exclusivity(unchecked) @usableFromInline var mainDrainScheduled = false

  /// Whether the runtimes were released; owned by the loop's thread.
  @exclusivity(unchecked) @usableFromInline var runtimesReleased = false

  /// Retained by hand, released by the teardown (see ``ReducerCell``);
  /// owned by the thread that owns the loop, and `nil` only once stopped,
  /// when no reduction begins any more.
  @exclusivity(unchecked) @usableFromInline var reducer: Unmanaged<ReducerCell<State, Event>>?

  /// The control word, the lock and the reduction guard, then the inbox,
  /// the state and the feedbacks' watermarks, in one allocation of their
  /// own: they need stable addresses. The parts after the control are
  /// found at offsets that depend only on the types (``Layout``), not
  /// kept in pointers of this object: each pointer cost every idle system
  /// its 8 bytes, and the state's own allocation 32 (the idle-systems benchmark).
  @usableFromInline let control: UnsafeMutablePointer<fl_loop_control>

  /// The control word: the first field of `control`.
  @inlinable
  var word: UnsafeMutablePointer<UInt64> { UnsafeMutableRawPointer(control).assumingMemoryBound(to: UInt64.self) }

  @inlinable
  var identity: UnsafeRawPointer { UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque()) }

  // Guarded by `lock`. Their accesses are exclusive by construction (the
  // lock, or the single owner), so Swift's dynamic exclusivity checks, a
  // fifth of the time of an event, are turned off for them.

  @exclusivity(unchecked) @usableFromInline var nextObserverID: UInt64 = 0

  @exclusivity(unchecked) @usableFromInline var runningTasks = 0

  /// The copy of the state the owner last published to readers on other
  /// threads, and how many of them wait for it (SystemCore+Reads.swift).
  @exclusivity(unchecked) @usableFromInline var published: State?

  @exclusivity(unchecked) @usableFromInline var waitingReaders = 0

  // Owned by the thread that owns the loop.
  /// Whether `stateStorage` was destroyed; owned by the loop's thread.
  @exclusivity(unchecked) @usableFromInline var stateDestroyed = false

  /// How many feedbacks the system has: their runtimes and watermarks are
  /// in `control`'s allocation (SystemCore+Layout.swift).
  @usableFromInline let feedbackCount: Int

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
    feedbackCount = feedbacks.count
    let memory = UnsafeMutableRawPointer.allocate(
      byteCount: Layout.byteCount(feedbacks: feedbacks.count), alignment: Layout.alignment)
    control = memory.bindMemory(to: fl_loop_control.self, capacity: 1)
    (memory + Layout.state).bindMemory(to: State.self, capacity: 1).initialize(to: consume initial)
    self.reducer = .passRetained(ReducerCell(reducer))
    self.isolation = isolation
    self.environment = environment
    self.monitor = monitor
    self.isMonitored = monitor != nil
    self.isBounded = environment.eventBuffer != .unbounded
    (memory + Layout.inbox).bindMemory(to: EventInbox<State, Event>.self, capacity: 1).initialize(
      to: EventInbox(policy: environment.eventBuffer))
    switch environment.eventBuffer {
    case .unbounded: break
    case .dropNewest(let limit), .dropOldest(let limit):
      // Not `precondition`, whose message an optimized build drops.
      if limit < 0 { fatalError("FeedbackLoop: an event buffer limit must be 0 or more, not \(limit)") }
    }
    fl_loop_control_init(control)
    (memory + Layout.watermarks(feedbacks: feedbacks.count)).bindMemory(
      to: UInt64.self, capacity: max(feedbacks.count, 1)
    ).initialize(repeating: 0, count: max(feedbacks.count, 1))
    let runtimeSlots = (memory + Layout.runtimes(feedbacks: feedbacks.count)).bindMemory(
      to: FeedbackRuntime<State, Event>.self, capacity: feedbacks.count)
    SharedHandlers.whileMaking {
      for (index, feedback) in feedbacks.enumerated() {
        (runtimeSlots + index).initialize(
          to: feedback.makeRuntime(FeedbackID(index: index, label: feedback.label), self))
      }
    }
  }

  deinit {
    releaseRuntimes()
    reducer?.release()
    StateLink.releaseChain(&firstStateLink)
    EventLink.releaseChain(&firstEventLink)
    StateObserver.releaseChain(&firstObserver)
    pendingLocal.deallocate()
    inbox.deallocate()
    inboxStorage.deinitialize(count: 1)
    if !stateDestroyed { stateStorage.deinitialize(count: 1) }
    fl_loop_control_destroy(control)
    UnsafeMutableRawPointer(control).deallocate()
  }

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

  /// The bits of the control word (OwnershipStateMachine.swift).
  @usableFromInline typealias Control = OwnershipStateMachine.Bits

  /// Takes the loop unless another thread owns it; returns whether it did.
  /// Waits while a reader copies the state of the idle loop (`reader`
  /// without `owned`), which takes no longer than the copy; never under
  /// `lock`, which that reader holds.
  @inlinable
  func acquire() -> Bool {
    while true {
      let current = fl_word_load(word)
      switch OwnershipStateMachine.acquire(observed: current) {
      case .ownedElsewhere: return false
      case .waitForReader: fl_yield()
      case .take(let desired): if fl_word_exchange_if(word, current, desired) { return true }
      }
    }
  }

  /// Whether the caller may drain: any caller for a system of its own
  /// isolation; for a main-actor system, only a caller isolated to the main
  /// actor, which the public entry points learn from `#isolation` (the main
  /// actor need not run on the main thread, so the thread cannot tell).
  @inlinable @inline(__always)
  func mayDrain(callerIsMainActor: Bool) -> Bool {
    isolation == .sendingThread || callerIsMainActor
  }

  @inlinable @inline(__always)
  var isDrainingThread: Bool { fl_current_drainer() == identity }

  /// Handles `item` at once when this thread may and the system is idle (one
  /// atomic operation takes the loop); otherwise queues it.
  @inlinable
  func submit(_ item: InboxItem<State, Event>, callerIsMainActor: Bool) {
    let observed = fl_word_load(word)
    if let desired = OwnershipStateMachine.takeIdleLoop(
      observed: observed, mayDrain: mayDrain(callerIsMainActor: callerIsMainActor)),
      fl_word_exchange_if(word, observed, desired)
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
      // Read under `lock`: the owner of a released system drops it.
      let monitor = self.monitor
      unlock()
      // An observer added while another thread stopped the system passed
      // `submitControl`'s check before `stopped` was set: tell it here, or
      // its `onStop` is never called and its state sequence never finishes
      // (ControlWordTests, "G9 observe() races with stop()").
      reportRefusedAtStop(item, to: monitor)
      return
    }
    // The word as `queued` was set (or, set already, as it is under the
    // lock): an owner seen here sees `queued` when it tries to let the loop
    // go, and takes the item; `queued` stays set until it does.
    let (dropped, current) = enqueueLockedReading(item)
    // Read under `lock`, like the refusal's above; only for a drop, which
    // is rare.
    let monitor = dropped == nil ? nil : self.monitor
    switch OwnershipStateMachine.afterQueuing(
      observed: current, mayDrain: mayDrain(callerIsMainActor: callerIsMainActor))
    {
    case .ownerTakesIt:
      let backlog = inbox.items.count
      unlock()
      if let dropped { monitor?.report(.eventDiscarded(dropped, reason: .bufferFull)) }
      // The owner is far behind: most likely it lost its processor to the
      // senders. Give one back rather than grow the inbox further (the many-senders benchmark).
      if backlog >= Self.backlogBeforeYielding { fl_yield() }
    case .takeLoop:
      guard acquire() else {
        // Another thread took the loop meanwhile (`stop()`,
        // `processQueuedEvents()`): it sees `queued`, and takes the item.
        unlock()
        if let dropped { monitor?.report(.eventDiscarded(dropped, reason: .bufferFull)) }
        return
      }
      // What was queued before (a main-actor system's items sent from other
      // threads) goes first.
      let first = popLocked()
      unlock()
      if let dropped { monitor?.report(.eventDiscarded(dropped, reason: .bufferFull)) }
      let previousDrainer = fl_current_drainer()
      fl_set_current_drainer(identity)
      if let first { process(first) }
      drain(restoring: previousDrainer)
    case .hopToMainActor:
      let schedule = !mainDrainScheduled && !inbox.isEmpty
      if schedule { mainDrainScheduled = true }
      unlock()
      if let dropped { monitor?.report(.eventDiscarded(dropped, reason: .bufferFull)) }
      if schedule { scheduleMainDrain() }
    }
  }

  /// How many items a sender finds queued behind an owner before it gives
  /// its processor away once.
  @inlinable static var backlogBeforeYielding: Int { 4_096 }

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
    guard OwnershipStateMachine.shouldDrainQueuedWork(observed: fl_word_load(word)), acquire() else { return }
    let previousDrainer = fl_current_drainer()
    fl_set_current_drainer(identity)
    drain(restoring: previousDrainer)
  }

  /// Whether `stop()` was called, from any thread: read between two
  /// handlers of a pass.
  @inlinable @inline(__always)
  var isStopping: Bool { OwnershipStateMachine.isStopped(fl_word_load(word)) }

  /// The drain loop: handles what this thread and others queued until
  /// nothing is left, then lets the loop go. The caller owns the loop and
  /// has marked its thread; when done, the thread-local marker is given back
  /// to the system this thread was draining before (a feedback of one
  /// system may send to another, which then drains on the same thread).
  @inlinable
  func drain(restoring previousDrainer: UnsafeRawPointer?) {
    while true {
      let current = fl_word_load(word)
      if case .ownQueueOrLetGo = OwnershipStateMachine.step(observed: current) {
        if let local = pendingLocal.popFirst() {
          process(local)
          continue
        }
        if fl_word_exchange_if(word, current, 0) {
          fl_set_current_drainer(previousDrainer)
          return
        }
        continue
      }
      switch takeFromOtherThreads(observed: current, restoring: previousDrainer) {
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
  func takeFromOtherThreads(observed: UInt64, restoring previousDrainer: UnsafeRawPointer?) -> Interruption {
    let publishFirst: Bool
    let inbox: Bool
    switch OwnershipStateMachine.step(observed: observed) {
    case .interrupted(let publish, let queued):
      publishFirst = publish
      inbox = queued
    case .finishStopping:
      finishStopping(restoring: previousDrainer)
      return .letGo
    case .ownQueueOrLetGo:
      return .lookAgain
    }
    // A reader on another thread waits for this step (G15).
    if publishFirst { publish() }
    // What this thread queued in `pendingLocal` was sent before anything
    // in the inbox: it goes first (G2; see "The order of events" above).
    if let local = pendingLocal.popFirst() { return .item(local) }
    guard inbox else { return .lookAgain }
    lock()
    if isBounded {
      let next = popLocked()
      unlock()
      return next.map { .item($0) } ?? .lookAgain
    }
    moveAllLocked()
    unlock()
    return pendingLocal.popFirst().map { .item($0) } ?? .lookAgain
  }

  @usableFromInline
  var isStopped: Bool { OwnershipStateMachine.isStopped(fl_word_load(word)) }
}
