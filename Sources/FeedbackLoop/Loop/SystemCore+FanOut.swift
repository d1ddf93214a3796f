import CFeedbackLoopShims
import DequeModule
import Logging

/// One step of the loop: reducing an event in place and handing the new
/// state to the feedbacks, then to the observers (G3), with the monitor's
/// `.reduced` report in between (G10).
///
/// Only the thread that owns the loop runs this code: it touches the
/// state, the handler chains (`firstStateLink`, `firstEventLink`) and the
/// observers (`firstObserver`) without a lock. A stop from anywhere ends a
/// pass before its next handler (G9).
extension SystemCore {
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
      reducer.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.reduce(&state, event) }
      fl_reduce_end(control)
      isReducing = false
      publishIfAsked()
    }
    if endsEffect { runtimes[Int(token.feedback)].effectEnded(token.number, outcome: .finished) }
    // A state that holds references is lent to the handlers without a copy
    // (`fanOutLendingState(_:)`). A state of plain values holds nothing to
    // retain: its copy is free, and it keeps this loop written out here,
    // the shape it had before the lending: through `fanOut(_:_:)` the same
    // code allocated registers worse in the send path of an `Int` state
    // (the one-input benchmark 0.3 to 0.5 ns slower, measured).
    guard _isPOD(State.self) else { return fanOutLendingState(event) }
    let current = state
    var stateLink = firstStateLink
    while let link = stateLink {
      if isStopping { break }
      stateLink = link._withUnsafeGuaranteedRef {
        $0.call(current)
        return $0.next
      }
    }
    var eventLink = firstEventLink
    while let link = eventLink {
      if isStopping { break }
      eventLink = link._withUnsafeGuaranteedRef {
        $0.call(event, current)
        return $0.next
      }
    }
    notifyObservers(current)
  }

  /// Gives `current` to the feedbacks, then to the observers (G3).
  ///
  /// The reducer, the monitor's `.reduced` report or a handler may stop the
  /// system (`stop()` in a query): the pass ends before the next handler,
  /// so that no later feedback starts an effect and no observer sees a
  /// state after `stop()` returned (G9). A stop from another thread ends
  /// the feedbacks' part of the pass the same way, but not the observers':
  /// the state was reduced before that stop (it waits for a running
  /// reducer), so every observer is given it before it is told the system
  /// stopped (`notifyObservers(_:)`). One load of the word before each
  /// handler, a plain load on x86 and ARM.
  @inlinable @inline(__always)
  func fanOut(_ event: Event, _ current: State) {
    var stateLink = firstStateLink
    while let link = stateLink {
      if isStopping { break }
      stateLink = link._withUnsafeGuaranteedRef {
        $0.call(current)
        return $0.next
      }
    }
    var eventLink = firstEventLink
    while let link = eventLink {
      if isStopping { break }
      eventLink = link._withUnsafeGuaranteedRef {
        $0.call(event, current)
        return $0.next
      }
    }
    notifyObservers(current)
  }

  /// ``fanOut(_:_:)`` with the state as it is in its storage, lent without
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
      let slot = buffer.baseAddress.unsafelyUnwrapped
      UnsafeMutableRawPointer(slot).copyMemory(
        from: UnsafeRawPointer(stateStorage), byteCount: MemoryLayout<State>.size)
      let lent = slot.move()
      fanOut(event, lent)
      // Back into the temporary, which is not deinitialized: the bits were
      // the storage's, and it still owns them.
      slot.initialize(to: consume lent)
    }
  }

  /// Gives `state` to every observer, in the order they came.
  ///
  /// A `stop()` from inside the loop (a handler, an observer, the reducer)
  /// ends the pass: no later observer sees the state (G9). A stop from
  /// another thread does not: it came after the reduction, which it waits
  /// for, so the observers see the state before they are told the system
  /// stopped. Ending the pass at whichever observer that stop happened to
  /// reach let a state sequence, or a UI store, end without the system's
  /// last state, depending on timing (an effect that stops its system).
  @inlinable @inline(__always)
  func notifyObservers(_ state: State) {
    var observer = firstObserver
    while let link = observer {
      if isStopping, stoppedFromInside { return }
      observer = link._withUnsafeGuaranteedRef {
        $0.onState(state)
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
    reducer.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.reduce(&state, event) }
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

  /// Inlinable, so that the caller's specialization reaches the monitor:
  /// generic, it built the activity through the enum's metadata per event.
  @inlinable
  func reportReduction(_ event: Event, from before: State, to state: State, token: EffectToken) {
    monitor?.reportReduction(event, from: before, to: state, isExternal: token.isExternal) { source(of: token) }
  }

  /// The items that are not events: rare, so not worth specializing.
  @usableFromInline
  func processRare(_ item: InboxItem<State, Event>) {
    switch item {
    case .event, .finalEvent:
      process(item)
    case .start:
      startFeedbacks()
    case .effectEnded(let token, let outcome):
      guard !tornDown else { return }
      runtimes[Int(token.feedback)].effectEnded(token.number, outcome: outcome)
    case .control(let control):
      guard !tornDown else { return }
      runtimes[Int(control.feedback)].onControl(control.value)
    case .addObserver(let observer):
      StateObserver.append(observer, to: &firstObserver)
      observer.onState(state)
    case .removeObserver(let id):
      StateObserver.remove(from: &firstObserver, where: { $0.id == id })?.stopped()
    }
  }

  /// Starts the runtimes, then gives the initial state to the feedbacks'
  /// handlers and to the observers. A stop requested meanwhile (by a
  /// handler, the monitor's `.started` report, or another thread) ends the
  /// start before the next handler, as it ends an event's pass: nothing
  /// starts after `stop()` returned (G9), and the next step boundary tears
  /// down.
  func startFeedbacks() {
    let initial = state
    for runtime in runtimes {
      if isStopping { return }
      runtime.start()
    }
    if isStopping { return }
    monitor?.report(.started(initial: initial))
    var stateLink = firstStateLink
    while let link = stateLink {
      if isStopping { return }
      let current = link.takeUnretainedValue()
      current.call(initial)
      stateLink = current.next
    }
    notifyObservers(initial)
  }

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
      .addObserver(StateObserver(id: id, onState: receive, stopped: stopped)), callerIsMainActor: callerIsMainActor)
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
}
