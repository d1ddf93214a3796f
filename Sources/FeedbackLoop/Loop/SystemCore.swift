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
/// This file holds what the class stores, and where in the control's
/// allocation (`Layout`). What each party does with the control word is
/// decided in OwnershipStateMachine.swift, from one reading of it, with no
/// memory touched; the extensions do the atomic operations. Read in the
/// order an event travels:
///
/// 1. System.swift: `send` hands the event to the core;
/// 2. SystemCore+Drain.swift: taking an idle loop, the drain loop and its
///    step boundary, one item (the reducer, the fan-out to the feedbacks
///    and the observers), the owner's side of the reads;
/// 3. this file: what the core stores, and the rules above;
/// 4. OwnershipStateMachine.swift: the decisions the drain asks for;
/// 5. WorkQueue.swift: the items of work, an event's `EffectToken`, and
///    the owner's queue;
/// 6. FanOutLinks.swift: the links the fan-out calls (the feedbacks'
///    handlers, then the observers).
///
/// Off that path: Observing/StateObservers.swift (an observer's arrival
/// and removal, and its end), SystemCore+Inbox.swift (queueing while the loop is
/// busy), EventInbox.swift (the shared queue and the buffer policy, a
/// value), SystemCore+Effects.swift (effect and input tasks, the
/// watermarks), SystemCore+Stopping.swift (start, stop, the teardown, the
/// release), SystemCore+Reads.swift (reads of the state from other
/// threads, G15) and SystemCore+SendContext.swift (the sender's context,
/// for a tracing monitor).
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
  /// (`submitToBusySystem`); the owner reads it freely. Boxed: inline, the
  /// monitor's six closures took 97 bytes of every system, monitored or
  /// not (W4). Retained by hand, as the reducer's cell is: the loop calls
  /// the monitor through an unretained reference, with no access to this
  /// field but a read (an `inout` borrow is a write to ThreadSanitizer,
  /// and raced with another thread's read under `lock`).
  @exclusivity(unchecked) @usableFromInline var monitorBox: Unmanaged<SystemMonitorBox<State, Event>>?

  /// The monitor, copied out of its box: by the owner of the loop, or under
  /// `lock`.
  @inlinable var monitor: SystemMonitor<State, Event>? {
    monitorBox?._withUnsafeGuaranteedRef { $0.monitor }
  }

  /// What the monitor asks of the loop beyond its reports (the sender's
  /// context, the events waiting), or `nil`: tested once per send.
  @usableFromInline let hooks: MonitorHooks?

  // The one-byte fields, then the feedbacks' count, share two words: a
  // class's fields are laid out in the order written, and each gap between
  // them cost every idle system its bytes (the idle-systems benchmark).

  /// Whether there is a monitor: tested on the hot path, where reading the
  /// optional monitor itself would retain and release its closure.
  @usableFromInline let isMonitored: Bool

  /// Whether the monitor reads each reduction's states (before and after).
  /// `false` without a monitor, and for one that only counts reductions
  /// (``SystemMonitor/countReductions``, kept in `hooks`).
  @usableFromInline let readsStates: Bool

  /// Whether the monitor reads what started each effect, a description of
  /// the state (``SystemMonitor/describesTriggers``); `false` without one.
  @usableFromInline let describesTriggers: Bool

  /// Whether the monitor takes the sender's context at each send
  /// (``SystemMonitor/captureSendContext``, kept in `hooks`): tested once
  /// per send, beside the other one-byte fields, with no reference read.
  @usableFromInline let takesSendContext: Bool

  /// Whether the event buffer has a limit: then the owner's own sends go
  /// to the inbox too, where the limit counts them (G14).
  @usableFromInline let isBounded: Bool

  @usableFromInline let isolation: SystemIsolation

  // Owned by the thread that owns the loop.
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

  /// Whether `stateStorage` was destroyed; owned by the loop's thread.
  @exclusivity(unchecked) @usableFromInline var stateDestroyed = false

  /// How many feedbacks the system has: their runtimes and watermarks are
  /// in `control`'s allocation (`Layout`, below). Four bytes, in the word
  /// the flags above leave (the idle-systems benchmark).
  @usableFromInline let storedFeedbackCount: UInt32

  @inlinable var feedbackCount: Int { Int(storedFeedbackCount) }

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
  /// Bound as `UInt64`: `word` is `fl_loop_control`'s first field, at
  /// offset 0, and the control lives as long as this object (`deinit`).
  @inlinable
  var word: UnsafeMutablePointer<UInt64> { UnsafeMutableRawPointer(control).assumingMemoryBound(to: UInt64.self) }

  /// This core's address, as the thread-local marker of the thread that
  /// drains it (`fl_current_drainer`): compared, never dereferenced, so it
  /// needs no retain.
  @inlinable
  var identity: UnsafeRawPointer { UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque()) }

  // Guarded by `lock`. Their accesses are exclusive by construction (the
  // lock, or the single owner), so Swift's dynamic exclusivity checks, a
  // fifth of the time of an event, are turned off for them.

  @exclusivity(unchecked) @usableFromInline var nextObserverID: UInt64 = 0

  @exclusivity(unchecked) @usableFromInline var runningTasks = 0

  @exclusivity(unchecked) @usableFromInline var waitingReaders = 0

  /// The feedbacks' handlers and the observers, in chains that retain their
  /// links (see ``StateLink`` and ``Linked``).
  @exclusivity(unchecked) @usableFromInline var firstStateLink: Unmanaged<StateLink<State>>?

  @exclusivity(unchecked) @usableFromInline var firstEventLink: Unmanaged<EventLink<State, Event>>?

  @exclusivity(unchecked) @usableFromInline var firstObserver: Unmanaged<StateObserver<State>>?

  @exclusivity(unchecked) @usableFromInline var pendingLocal = LocalQueue<InboxItem<State, Event>>()

  /// The copy of the state the owner last published to readers on other
  /// threads, and how many of them wait for it (SystemCore+Reads.swift).
  @exclusivity(unchecked) @usableFromInline var published: State?
  // Last: its size depends on `State`, and no field after it pads.

  @usableFromInline
  init(
    initial: consuming State,
    reducer: @escaping @Sendable (inout State, Event) -> Void,
    feedbacks: [Feedback<State, Event>],
    isolation: SystemIsolation,
    environment: SystemEnvironment,
    monitor: SystemMonitor<State, Event>?
  ) {
    if feedbacks.count > Int(UInt32.max) {
      fatalError("FeedbackLoop: a system has at most 2^32 - 1 feedbacks, not \(feedbacks.count)")
    }
    storedFeedbackCount = UInt32(feedbacks.count)
    let memory = UnsafeMutableRawPointer.allocate(
      byteCount: Layout.byteCount(feedbacks: feedbacks.count), alignment: Layout.alignment)
    control = memory.bindMemory(to: fl_loop_control.self, capacity: 1)
    (memory + Layout.state).bindMemory(to: State.self, capacity: 1).initialize(to: consume initial)
    self.reducer = .passRetained(ReducerCell(reducer))
    self.isolation = isolation
    self.environment = environment
    self.monitorBox = monitor.map { .passRetained(SystemMonitorBox($0)) }
    self.isMonitored = monitor != nil
    self.readsStates = monitor != nil && monitor?.countReductions == nil
    self.describesTriggers = monitor?.describesTriggers ?? false
    self.takesSendContext = monitor?.captureSendContext != nil
    self.hooks = MonitorHooks(monitor)
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
    monitorBox?.release()
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

}

// MARK: - The parts of the control's allocation

/// The inbox, the state, the feedbacks' watermarks and their runtimes live
/// in `control`'s allocation, after the control word, the lock and the
/// reduction guard, at offsets that depend only on the types and the number
/// of feedbacks. The allocation is made in `init` and freed in `deinit`
/// (above), and the state is destroyed early by `destroyState()`
/// (SystemCore+Stopping.swift).
extension SystemCore {
  /// Where each part of `control`'s allocation starts:
  /// [control: word and lock, guard lines][inbox lines][state][watermarks][runtimes],
  /// the control and the inbox each on cache lines of their own (see
  /// fl_loop_control); a state small enough goes in the guard's line, and
  /// so do the watermarks if they fit after it; the runtimes go in the
  /// word's line if they fit after the lock (the idle-systems benchmark: each part that needs no
  /// line of its own is an allocation, or a line, fewer).
  @usableFromInline enum Layout {
    @inlinable static var line: Int { Int(FL_CACHE_LINE) }

    @inlinable static func roundedUp(_ size: Int, to alignment: Int) -> Int {
      (size + alignment - 1) / alignment * alignment
    }

    @inlinable static var inbox: Int { roundedUp(MemoryLayout<fl_loop_control>.stride, to: line) }

    /// Where the guard's line has room left, after the guard's counters.
    @inlinable static var guardSpare: Int { MemoryLayout<fl_loop_control>.offset(of: \.guardLine)! }

    /// Whether the state fits in the guard's line. Then a reader on another
    /// thread finds the guard's sequence and the state on one line, and the
    /// owner writes one line per reduction, not two (the sender-with-a-reader benchmark: each line a
    /// reader loads costs the owner a miss at its next write).
    @inlinable static var stateInGuardLine: Bool {
      MemoryLayout<State>.size <= MemoryLayout<fl_loop_control>.stride - guardSpare
        && guardSpare % MemoryLayout<State>.alignment == 0
    }

    @inlinable static var afterInbox: Int {
      inbox + roundedUp(MemoryLayout<EventInbox<State, Event>>.stride, to: line)
    }

    @inlinable static var state: Int {
      stateInGuardLine ? guardSpare : roundedUp(afterInbox, to: MemoryLayout<State>.alignment)
    }

    /// Where the guard's line has room left after the state, if the state
    /// is there (the state's end otherwise).
    @inlinable static var afterStateInGuardLine: Int {
      roundedUp(guardSpare + (stateInGuardLine ? MemoryLayout<State>.size : 0), to: MemoryLayout<UInt64>.alignment)
    }

    /// Whether the watermarks of `feedbacks` feedbacks fit in the guard's
    /// line, after the state: the owner writes them (rarely: at a
    /// cancellation) and reads them (per effect event), as it does the
    /// guard; a line of their own cost every idle system 16 bytes (the idle-systems benchmark).
    @inlinable static func watermarksInGuardLine(feedbacks: Int) -> Bool {
      afterStateInGuardLine + MemoryLayout<UInt64>.stride * max(feedbacks, 1)
        <= MemoryLayout<fl_loop_control>.stride
    }

    /// Where the parts that follow the inbox start.
    @inlinable static var tail: Int {
      roundedUp(stateInGuardLine ? afterInbox : state + MemoryLayout<State>.size, to: MemoryLayout<UInt64>.alignment)
    }

    @inlinable static func watermarks(feedbacks: Int) -> Int {
      watermarksInGuardLine(feedbacks: feedbacks) ? afterStateInGuardLine : tail
    }

    /// Where the parts after the watermarks start.
    @inlinable static func afterWatermarks(feedbacks: Int) -> Int {
      watermarksInGuardLine(feedbacks: feedbacks) ? tail : tail + MemoryLayout<UInt64>.stride * max(feedbacks, 1)
    }

    /// Where the word's line has room left, after the word and the lock,
    /// and where that room ends.
    @inlinable static var wordSpare: Int {
      roundedUp(MemoryLayout<fl_loop_control>.offset(of: \.wordLine)!, to: MemoryLayout<UInt64>.alignment)
    }

    @inlinable static var wordLineEnd: Int { MemoryLayout<fl_loop_control>.offset(of: \.reducing)! }

    /// Whether the runtimes of `feedbacks` feedbacks fit in the word's
    /// line, after the lock. They are written when the system is made and
    /// at its teardown only, and read by the owner when an effect ends or a
    /// feedback gets a control value: not per event.
    @inlinable static func runtimesInWordLine(feedbacks: Int) -> Bool {
      wordSpare + MemoryLayout<FeedbackRuntime<State, Event>>.stride * feedbacks <= wordLineEnd
    }

    /// The feedbacks' runtimes, one reference each, in the word's line or
    /// after the watermarks: an array of them was an allocation of its own
    /// (the idle-systems benchmark).
    @inlinable static func runtimes(feedbacks: Int) -> Int {
      runtimesInWordLine(feedbacks: feedbacks) ? wordSpare : afterWatermarks(feedbacks: feedbacks)
    }

    @inlinable static func byteCount(feedbacks: Int) -> Int {
      afterWatermarks(feedbacks: feedbacks)
        + (runtimesInWordLine(feedbacks: feedbacks)
          ? 0 : MemoryLayout<FeedbackRuntime<State, Event>>.stride * feedbacks)
    }

    @inlinable static var alignment: Int {
      max(
        line, MemoryLayout<fl_loop_control>.alignment, MemoryLayout<EventInbox<State, Event>>.alignment,
        MemoryLayout<State>.alignment, MemoryLayout<UInt64>.alignment)
    }
  }

  // Each pointer below is into `control`'s allocation, at the offset where
  // `init` bound and initialized its part (`Layout`): valid, and bound to
  // that type, from `init` to `deinit`, which frees it.

  /// Per feedback: its effects numbered up to this one are cancelled, and
  /// their events dropped (G4). `UInt64.max`: ask the runtime (keyed
  /// feedbacks cancel effects one by one). Plain memory, so that checking an
  /// event costs one comparison and no reference counting.
  ///
  /// In bounds for indices below `max(feedbackCount, 1)`, which `init`
  /// initialized; valid while this object lives (freed in `deinit`). A
  /// caller indexes it with a token's feedback, below `feedbackCount`
  /// (checked by `assert` in debug builds where the loop reads it).
  @inlinable
  var watermarks: UnsafeMutablePointer<UInt64> {
    (UnsafeMutableRawPointer(control) + Layout.watermarks(feedbacks: feedbackCount)).assumingMemoryBound(
      to: UInt64.self)
  }

  /// The feedbacks' runtimes, in the order of the feedbacks, in `control`'s
  /// allocation; empty once they are released (at the teardown). Owned by
  /// the loop's thread. A buffer pointer, so that debug builds check each
  /// index against `count` (its subscript does).
  @inlinable
  var runtimes: UnsafeMutableBufferPointer<FeedbackRuntime<State, Event>> {
    UnsafeMutableBufferPointer(
      start: (UnsafeMutableRawPointer(control) + Layout.runtimes(feedbacks: feedbackCount)).assumingMemoryBound(
        to: FeedbackRuntime<State, Event>.self),
      count: runtimesReleased ? 0 : feedbackCount)
  }

  /// Releases the runtimes (the teardown, or `deinit` if there was none).
  @inlinable
  func releaseRuntimes() {
    guard !runtimesReleased else { return }
    _ = runtimes.deinitialize()
    runtimesReleased = true
  }

  /// The shared queue and its buffer policy (EventInbox.swift), guarded by
  /// `lock`: in the control's allocation, on cache lines of its own after
  /// the control's, so that the senders, which write it per event, do not
  /// take from the owner the lines it reads per event (this object's
  /// fields; the many-senders benchmark).
  @inlinable
  var inboxStorage: UnsafeMutablePointer<EventInbox<State, Event>> {
    (UnsafeMutableRawPointer(control) + Layout.inbox).assumingMemoryBound(to: EventInbox<State, Event>.self)
  }

  @inlinable
  var inbox: EventInbox<State, Event> {
    unsafeAddress { UnsafePointer(inboxStorage) }
    unsafeMutableAddress { inboxStorage }
  }

  /// The state, out of line (in `control`'s allocation): the loop's
  /// thread destroys it when the ``System`` is released, while an ``Input``
  /// may still hold this core (see ``systemReleased()``).
  @inlinable
  var stateStorage: UnsafeMutablePointer<State> {
    (UnsafeMutableRawPointer(control) + Layout.state).assumingMemoryBound(to: State.self)
  }

  /// The state, mutated in place through its storage.
  @inlinable
  var state: State {
    unsafeAddress { UnsafePointer(stateStorage) }
    unsafeMutableAddress { stateStorage }
  }
}

/// A system's reducer, in an object that the core holds by hand.
///
/// The core lets the reducer go when the system stops: an ``Input`` may
/// keep the core for as long as the input lives (its target holds the core
/// so that a send through it costs no reference counting), and what the
/// reducer captures must not live that long (G9). A closure in a `var` of
/// the core would be retained and released around every call, since the
/// call may write the field; a `let` closure in this object, reached
/// through an unretained reference, costs one load more and no reference
/// counting, as the feedbacks' handlers do (``StateLink``).
@usableFromInline
final class ReducerCell<State, Event>: Sendable {
  @usableFromInline let reduce: @Sendable (inout State, Event) -> Void

  @usableFromInline
  init(_ reduce: @escaping @Sendable (inout State, Event) -> Void) {
    self.reduce = reduce
  }
}
