// The observers of a system: their arrival and removal, which are items of
// the loop's queue so that they take their place among the events (G2),
// and their end when the system stops (G9). An observer itself
// (`StateObserver`) is a link of the chains the fan-out walks after the
// feedbacks (G3), beside the feedbacks' handlers, in FanOutLinks.swift.
//
// The public faces are ``System/states``, ``System/states(buffering:isolation:)``
// and ``System/observe(isolation:_:onStop:)`` (System+Observing.swift),
// and the values they return (StateSequence.swift). The per-event call of
// every observer is in the fan-out (`SystemCore.fanOut`,
// SystemCore+Drain.swift).

extension SystemCore {
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

  /// Adds `observer` at the end of the chain and gives it the current
  /// state: the item `.addObserver`, handled by the owner.
  @usableFromInline
  func attachObserver(_ observer: StateObserver<State>) {
    StateObserver.append(observer, to: &firstObserver)
    observer.onState(state)
  }

  /// Unlinks the observer `id`, if it is still there, and tells it it
  /// stopped: the item `.removeObserver`, handled by the owner.
  @usableFromInline
  func detachObserver(_ id: UInt64) {
    StateObserver.remove(from: &firstObserver, where: { $0.id == id })?.stopped()
  }

  /// Tells every observer that the system stopped, and releases the
  /// chain: the teardown (SystemCore+Stopping.swift), on the owner's thread.
  @usableFromInline
  func finishObservers() {
    var observers = firstObserver
    firstObserver = nil
    StateObserver.forEach(observers) { $0.stopped() }
    StateObserver.releaseChain(&observers)
  }

  /// Tells each observer that was still waiting in the queue to be added
  /// that the system stopped: the teardown's last word to observers.
  @usableFromInline
  func finishObservers(waitingIn leftovers: some Sequence<InboxItem<State, Event>>) {
    for case .addObserver(let observer) in leftovers { observer.stopped() }
  }
}
