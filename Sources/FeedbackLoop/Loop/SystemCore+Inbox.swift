import CFeedbackLoopShims
import DequeModule
import Logging

/// Sending: where each sender's work waits for the owner of the loop (G2,
/// G14).
///
/// Owns nothing of its own: it works on `inbox` (an ``EventInbox``, which
/// holds the buffer policy), which any thread may touch under `lock` (and
/// `queued` in the control word,
/// set and cleared under it), and on `pendingLocal`, which only the thread
/// that owns the loop touches. Every sender, on any thread, comes through
/// here; the owner takes the work out again in SystemCore.swift's drain.
extension SystemCore {
  @inlinable
  func submit(_ event: Event, from token: EffectToken, callerIsMainActor: Bool = false) {
    submit(.event(event, token), callerIsMainActor: callerIsMainActor)
  }

  @inlinable
  func effectEnded(_ token: EffectToken, outcome: EffectOutcome) {
    submit(.effectEnded(token, outcome), callerIsMainActor: false)
  }

  @usableFromInline
  func submitControl(feedback: Int32, value: any Sendable) {
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
    for event in dropped { monitor?.report(.eventDiscarded(event, reason: .bufferFull)) }
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
