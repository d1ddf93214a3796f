import CFeedbackLoopShims

/// The drain, in the order an event travels: a sender takes an idle loop
/// (or queues its work, SystemCore+Inbox.swift), the owner processes one
/// item (an event: the reducer, then the fan-out to the feedbacks and the
/// observers, G3), and at each step boundary it takes the next item, hands
/// a copy of the state to a reader that waits (G15), tears down after a
/// stop (G9), or lets the loop go.
///
/// Only the thread that owns the loop runs the code after `submit` took it:
/// it touches the state, the handler chains (`firstStateLink`,
/// `firstEventLink`), the observers (`firstObserver`) and `pendingLocal`
/// without a lock. What each party does with the control word is decided
/// in OwnershipStateMachine.swift; this file does the atomic operations.
extension SystemCore {
  // MARK: - The way in

  @inlinable
  func submit(_ event: Event, from token: EffectToken, callerIsMainActor: Bool = false) {
    if takesSendContext {
      return submitInContext(event, token, endsEffect: false, callerIsMainActor: callerIsMainActor)
    }
    submit(.event(event, token), callerIsMainActor: callerIsMainActor)
  }

  /// An effect's last event, which ends it.
  @inlinable
  func submitFinal(_ event: Event, from token: EffectToken) {
    if takesSendContext { return submitInContext(event, token, endsEffect: true, callerIsMainActor: false) }
    submit(.finalEvent(event, token), callerIsMainActor: false)
  }

  @inlinable
  func effectEnded(_ token: EffectToken, outcome: EffectOutcome) {
    submit(.effectEnded(token, outcome), callerIsMainActor: false)
  }

  @usableFromInline
  func submitControl(feedback: Int32, value: any Sendable) {
    submit(.control(ControlValue(feedback: feedback, value: value)), callerIsMainActor: false)
  }

  /// Handles `item` at once when this thread may and the system is idle (one
  /// atomic operation takes the loop); otherwise queues it
  /// (`submitToBusySystem`, SystemCore+Inbox.swift).
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

  // MARK: - The drain loop and its step boundary

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
        // About to go idle: the monitor is told the reductions it was not
        // told yet, and that none waits (after a count above 0), while
        // this thread still owns the loop (the hooks' counts are the
        // owner's).
        hooks?.loopGoesIdle()
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
  /// system stops, a reader waits, or other threads queued work. Returns
  /// `.letGo` once the loop is let go (the thread marker given back).
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
    // in the inbox: it goes first (G2; see "The order of events" in
    // SystemCore.swift).
    if let local = pendingLocal.popFirst() { return .item(local) }
    guard inbox else { return .lookAgain }
    lock()
    // Read under the lock, with the events it counts; reported after it.
    let waiting = self.inbox.queuedEvents
    if isBounded {
      let next = popLocked()
      unlock()
      hooks?.reportWaiting(waiting)
      return next.map { .item($0) } ?? .lookAgain
    }
    moveAllLocked()
    unlock()
    hooks?.reportWaiting(waiting)
    return pendingLocal.popFirst().map { .item($0) } ?? .lookAgain
  }

  /// Whether `stop()` was called, from any thread: read between two
  /// handlers of a pass.
  @inlinable @inline(__always)
  var isStopping: Bool { OwnershipStateMachine.isStopped(fl_word_load(word)) }

  @usableFromInline
  var isStopped: Bool { OwnershipStateMachine.isStopped(fl_word_load(word)) }

  /// Whether a thread runs the loop now, or work waits in the shared inbox
  /// (a main-actor system's sends from elsewhere, before their hop).
  var hasWorkInFlight: Bool { OwnershipStateMachine.hasWorkInFlight(fl_word_load(word)) }

  // MARK: - One item

  /// Handles one item: reduces an event in place and fans the new state
  /// out, or does the loop's other work, each kind in its own function. The
  /// caller owns the loop.
  ///
  /// The work that is not an event is rare: its functions are not
  /// inlinable, so that the caller's specialization holds only the events'
  /// path.
  @inlinable @inline(__always)
  func process(_ item: consuming InboxItem<State, Event>) {
    // Consumed, not copied, like the effects (see EffectfulRuntime.start).
    switch consume item {
    case .event(let event, let token):
      processEvent(event, token, endsEffect: false)
    case .finalEvent(let event, let token):
      processEvent(event, token, endsEffect: true)
    case .start:
      startFeedbacks()
    case .effectEnded(let token, let outcome):
      endEffect(token, outcome: outcome)
    case .control(let control):
      deliverControl(control)
    case .addObserver(let observer):
      attachObserver(observer)
    case .removeObserver(let id):
      detachObserver(id)
    case .eventInContext(let sent):
      processEventInContext(sent)
    }
  }

  /// Reduces `event` in place, unless its effect was cancelled, then gives
  /// the new state to the feedbacks, then to the observers (G3).
  @inlinable @inline(__always)
  func processEvent(_ event: Event, _ token: EffectToken, endsEffect: Bool) {
    // In bounds: an effect's token carries the index of the feedback that
    // started it, below `feedbackCount` (FeedbackRuntime's `id.index`).
    assert(!token.isEffect || Int(token.feedback) < feedbackCount, "FeedbackLoop: a token's feedback out of range")
    if token.isEffect, token.number <= watermarks[Int(token.feedback)], isCancelled(token) {
      discard(event, token, endsEffect: endsEffect)
      return
    }
    if !isMonitored {
      guard reduceUnmonitored(event) else { return putBack(event, token, endsEffect: endsEffect) }
    } else if readsStates {
      guard reduceMonitored(event, token) else { return putBack(event, token, endsEffect: endsEffect) }
    } else {
      // A monitor that only counts: no copy of the state, no report.
      guard reduceUnmonitored(event) else { return putBack(event, token, endsEffect: endsEffect) }
      hooks.unsafelyUnwrapped.countReduction()
    }
    if endsEffect { runtimes[Int(token.feedback)].effectEnded(token.number, outcome: .finished) }
    // A state that holds references is lent to the handlers without a
    // copy; a state of plain values holds nothing to retain, and its copy
    // is free.
    guard _isPOD(State.self) else { return fanOutLendingState(event) }
    let current = state
    fanOut(event, current, in: stateStorage)
  }

  /// Reduces in place; returns `false`, reducing nothing, if the system
  /// stopped.
  @inlinable @inline(__always)
  func reduceUnmonitored(_ event: Event) -> Bool {
    guard beginReduction() else { return false }
    isReducing = true
    // Non-nil and unretained: the core holds the cell until the
    // teardown, which runs on this thread at a step boundary and sets
    // `reducer` to nil only after `stopped`, and no reduction begins
    // after `stopped` (`beginReduction`), so the cell outlives the call.
    reducer.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.reduce(&state, event) }
    fl_reduce_end(control)
    isReducing = false
    publishIfAsked()
    return true
  }

  /// Reduces with a copy of the state before, for the monitor; returns
  /// `false`, reducing nothing, if the system stopped.
  @inlinable
  func reduceMonitored(_ event: Event, _ token: EffectToken) -> Bool {
    let before = state
    guard reduceUnmonitored(event) else { return false }
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

  /// Inlinable, so that the caller's specialization reaches the monitor:
  /// generic, it built the activity through the enum's metadata per event.
  @inlinable
  func reportReduction(_ event: Event, from before: State, to state: State, token: EffectToken) {
    // Through an unretained reference to the box, whose monitor is a
    // constant: the call borrows it. Read from a stored optional, the
    // monitor was copied for each call and destroyed after it, a retain and
    // a release of each of its closures per event (a third of a durable
    // system's loop, whose monitor is the ledger's; D4's profile). The box
    // outlives the call: only this thread, which owns the loop, releases
    // it, at a step boundary (`destroyState`).
    monitorBox?._withUnsafeGuaranteedRef {
      $0.monitor.reportReduction(event, from: before, to: state, origin: ReductionOrigin(token)) {
        source(of: token)
      }
    }
  }

  // MARK: - The fan-out

  /// Gives `current` to the feedbacks' state handlers, then to their event
  /// handlers, then to the observers (G3). The one fan-out: an event's
  /// plain state is copied into it, a state with references lent to it
  /// (`fanOutLendingState(_:)`).
  ///
  /// The reducer, the monitor's `.reduced` report or a handler may stop the
  /// system (`stop()` in a query): the pass ends before the next handler,
  /// so that no later feedback starts an effect and no observer sees a
  /// state after `stop()` returned (G9). A stop from another thread ends
  /// the feedbacks' part of the pass the same way, but not the observers':
  /// the state was reduced before that stop (it waits for a running
  /// reducer), so every observer is given it before it is told the system
  /// stopped. Ending the pass at whichever observer that stop happened to
  /// reach let a state sequence, or a UI store, end without the system's
  /// last state, depending on timing (an effect that stops its system).
  ///
  /// `storage` is where the system stores the state that `current` is, for
  /// the handlers that read it in place (``StateHandler``).
  @inlinable @inline(__always)
  func fanOut(_ event: Event, _ current: State, in storage: UnsafePointer<State>) {
    // Each chain retains its links, and only this thread, which owns the
    // loop, unlinks or releases one (an observer's removal is an item of
    // this queue, handled after the pass; the chains go at the teardown, at
    // a step boundary): so each link is called through an unretained
    // reference. The three loops are written out rather than one generic
    // walk called three times: that walk made a send to a store scoped five
    // or ten levels deep 15% slower, and many closure queries 4% (the
    // benchmarks, old and new binaries measured in turns).
    var stateLink = firstStateLink
    while let link = stateLink {
      if isStopping { break }
      stateLink = link._withUnsafeGuaranteedRef {
        $0.call(current, storage)
        return $0.next
      }
    }
    var eventLink = firstEventLink
    while let link = eventLink {
      if isStopping { break }
      eventLink = link._withUnsafeGuaranteedRef {
        $0.call(event, current, storage)
        return $0.next
      }
    }
    var observer = firstObserver
    while let link = observer {
      if isStopping, stoppedFromInside { return }
      observer = link._withUnsafeGuaranteedRef {
        $0.onState(current)
        return $0.next
      }
    }
  }

  /// ``fanOut(_:_:in:)`` with the state as it is in its storage, lent without
  /// a copy: no retain and no release of what the state holds (a child
  /// collection's storage, the children-by-id benchmark in BENCHMARKS.md).
  ///
  /// A copy of the state (`let current = state`) retained and released the
  /// storage of every reference the state holds, once per event: a tenth
  /// of the children-by-id benchmark. Passing `stateStorage.pointee` to each handler instead made the
  /// compiler copy once per handler, since it cannot see that a handler
  /// does not write the storage (the hundred-feedbacks benchmark got slower). So the value the handlers
  /// borrow is the storage's bits, taken into a temporary as a value of its
  /// own, and given back to the temporary, not destroyed, when the pass
  /// ends: the storage keeps owning what it holds all along.
  ///
  /// Sound because nothing writes or destroys the stored state while the
  /// handlers run: only this thread, which owns the loop, writes it (the
  /// reducer, between two passes), and destroys it (`destroyState()`, in
  /// the teardown, at a step boundary: a `stop()` or a release from inside
  /// the loop only marks the word). Readers on other threads copy it (a
  /// retain of their own), and a handler that keeps the state copies it
  /// too, as from any borrowed value (LentStateTests).
  @inlinable @inline(__always)
  func fanOutLendingState(_ event: Event) {
    _withUnprotectedUnsafeTemporaryAllocation(of: State.self, capacity: 1) { buffer in
      // Non-nil: a temporary allocation of capacity 1 has an address.
      let slot = buffer.baseAddress.unsafelyUnwrapped
      UnsafeMutableRawPointer(slot).copyMemory(
        from: UnsafeRawPointer(stateStorage), byteCount: MemoryLayout<State>.size)
      let lent = slot.move()
      fanOut(event, lent, in: stateStorage)
      // Back into the temporary, which is not deinitialized: the bits were
      // the storage's, and it still owns them.
      slot.initialize(to: consume lent)
    }
  }

  // MARK: - The other work

  /// Starts the runtimes, then gives the initial state to the feedbacks'
  /// state handlers and to the observers. A stop requested meanwhile (by a
  /// handler, the monitor's `.started` report, or another thread) ends the
  /// start before the next handler, as it ends an event's pass: nothing
  /// starts after `stop()` returned (G9), and the next step boundary tears
  /// down.
  @usableFromInline
  func startFeedbacks() {
    let initial = state
    for runtime in runtimes {
      if isStopping { return }
      runtime.start()
    }
    if isStopping { return }
    monitor?.report(.started(initial: initial))
    // The rare path: through retained references (`takeUnretainedValue`
    // gives one to each call), not the fan-out's unretained ones.
    var stateLink = firstStateLink
    while let link = stateLink {
      if isStopping { return }
      let current = link.takeUnretainedValue()
      withUnsafePointer(to: initial) { current.call(initial, $0) }
      stateLink = current.next
    }
    var observer = firstObserver
    while let link = observer {
      if isStopping { return }
      let current = link.takeUnretainedValue()
      current.onState(initial)
      observer = current.next
    }
  }

  /// An effect's task ended (its runtime may start the next one, G7).
  @usableFromInline
  func endEffect(_ token: EffectToken, outcome: EffectOutcome) {
    guard !tornDown else { return }
    runtimes[Int(token.feedback)].effectEnded(token.number, outcome: outcome)
  }

  /// A value a feedback's own task produced for its runtime.
  @usableFromInline
  func deliverControl(_ control: ControlValue) {
    guard !tornDown else { return }
    runtimes[Int(control.feedback)].onControl(control.value)
  }

  // MARK: - Answering readers (the owner's side of SystemCore+Reads.swift)

  /// The owner's one load after a reducer: publishes if a reader asked.
  @inlinable @inline(__always)
  func publishIfAsked() {
    if OwnershipStateMachine.readerWaits(fl_word_load(word)) { publish() }
  }

  /// Copies the state for the readers that wait, and clears `reader`. The
  /// caller owns the loop. A reader that gave up waiting leaves the bit
  /// set and no one counted: then nothing is copied.
  @inlinable
  func publish() {
    lock()
    if OwnershipStateMachine.readerWaits(fl_word_load(word)) {
      // A released system's state is gone, and nobody can read it.
      if waitingReaders > 0, !stateDestroyed { published = state }
      fl_publications_increment(control)
      _ = fl_word_clear(word, Control.reader)
    }
    unlock()
  }
}
