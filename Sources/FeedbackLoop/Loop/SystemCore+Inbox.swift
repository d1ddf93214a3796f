import CFeedbackLoopShims
import DequeModule
import Logging

/// Queueing: where a sender's work waits when the loop is busy (G2, G14).
///
/// `submit` (SystemCore+Drain.swift) comes here when it cannot take an idle
/// loop: the system is owned, stopped, or holds queued work. Owns nothing
/// of its own: it works on `inbox` (an ``EventInbox``, which holds the
/// buffer policy), which any thread may touch under `lock` (and `queued` in
/// the control word, set and cleared under it), and on `pendingLocal`,
/// which only the thread that owns the loop touches. The owner takes the
/// work out again at its step boundary (SystemCore+Drain.swift).
extension SystemCore {
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

  /// Queues events behind everything already queued, even from the owning
  /// thread (an ``Input`` hands over the events it kept before binding).
  /// Returns those a bounded buffer refused, unreported: the caller reports
  /// them (``reportRefusedByBuffer(_:)``) once it holds no lock of its own,
  /// since the monitor is user code, which may send through that input.
  @usableFromInline
  func enqueueShared(_ events: [Event]) -> [Event] {
    guard !events.isEmpty else { return [] }
    lock()
    var dropped: [Event] = []
    for event in events {
      if let event = enqueueLocked(.event(event, .external)) { dropped.append(event) }
    }
    unlock()
    return dropped
  }

  /// Reports events a bounded buffer refused (G14), in order.
  @usableFromInline
  func reportRefusedByBuffer(_ dropped: [Event]) {
    for event in dropped { monitor?.report(.eventDiscarded(event, reason: .bufferFull)) }
  }

  /// Enqueues work the owning thread sends to its own loop (a runtime, or a
  /// send from the reducer, a feedback or an observer), in its place in the
  /// order of sends (G2; see "The order of events" in SystemCore.swift).
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
    if case .ownQueue = OwnershipStateMachine.ownerSend(observed: fl_word_load(word), bounded: isBounded) {
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
    if let dropped { monitor?.report(.eventDiscarded(dropped, reason: .bufferFull)) }
  }

  /// Accounts for an item that reached a stopped system: an event is
  /// reported discarded, an observer told the system stopped.
  @usableFromInline
  func reportRefusedAtStop(_ item: InboxItem<State, Event>) {
    reportRefusedAtStop(item, to: monitor)
  }

  /// ``reportRefusedAtStop(_:)`` for a thread that does not own the loop,
  /// with the monitor it read under `lock`.
  @usableFromInline
  func reportRefusedAtStop(_ item: InboxItem<State, Event>, to monitor: SystemMonitor<State, Event>?) {
    if let event = item.event { monitor?.report(.eventDiscarded(event, reason: .systemStopped)) }
    if case .addObserver(let observer) = item { observer.stopped() }
  }

  /// Appends to the shared queue under the buffer policy (EventInbox.swift)
  /// and sets `queued`; returns the event dropped to respect the policy, if
  /// any. Caller holds `lock`.
  @inlinable
  func enqueueLocked(_ item: InboxItem<State, Event>) -> Event? {
    enqueueLockedReading(item).dropped
  }

  /// ``enqueueLocked(_:)``, returning also the control word as it was just
  /// before `queued` was set (with `queued` already set, as it is now). A
  /// sender that finds `queued` set (it is set and cleared only under the
  /// lock, which the caller holds) does not write the word at all: one load
  /// instead of a read-modify-write per event, on the line every sender
  /// reads (the many-senders benchmark). Caller holds `lock`.
  @inlinable @inline(__always)
  func enqueueLockedReading(_ item: InboxItem<State, Event>) -> (dropped: Event?, observed: UInt64) {
    let dropped = inbox.append(item)
    let observed = fl_word_load(word)
    guard !inbox.isEmpty, observed & Control.queued == 0 else { return (dropped, observed) }
    return (dropped, fl_word_set(word, Control.queued))
  }

  /// Moves every queued item into the owner's `pendingLocal`, which is
  /// empty, by swapping the two buffers, and clears `queued`: the owner
  /// takes the lock once per batch of other threads' sends rather than
  /// once per event (the many-senders benchmark). The order stays that of the sends (G2): the batch
  /// was sent before anything that reaches the inbox after it, and the
  /// owner's own sends go behind the batch in `pendingLocal` while `queued`
  /// stays clear. Only for an unbounded buffer: a limit counts the events
  /// waiting in the inbox (G14), so a bounded inbox hands them over one by
  /// one. The caller owns the loop and holds `lock`.
  @inlinable
  func moveAllLocked() {
    inbox.moveAll(into: &pendingLocal)
    _ = fl_word_clear(word, Control.queued)
  }

  /// Takes the first queued item; clears `queued` when none is left. Caller
  /// holds `lock`.
  @inlinable
  func popLocked() -> InboxItem<State, Event>? {
    let item = inbox.popFirst()
    if inbox.isEmpty { _ = fl_word_clear(word, Control.queued) }
    return item
  }
}
