import CFeedbackLoopShims
import DequeModule
import Logging

/// Starting and stopping: the teardown, and letting a stopped loop go for
/// good (G1, G9, G10).
///
/// `stop()` may be called from any thread, any callback, and a deinit;
/// `stopped` in the control word is the one fact every other thread sees.
/// The teardown itself runs only on the thread that owns the loop, which
/// then clears `owned` for good (`releaseAfterStopping`).
extension SystemCore {
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
    // Inside its own reducer too, reached through a send to another system
    // whose loop ran inline on this thread: waiting for the reduction would
    // wait for this thread; it hung (RedTeamReducerReleaseTests).
    if isDrainingThread || fl_reducing_on_this_thread(control) {
      // From inside the loop (a query, an observer, the reducer): the word
      // says so at once, so `isStopped` is true when this returns, the rest
      // of the pass is skipped (`processEvent`), no reduction begins
      // (`beginReduction`), and the next step boundary tears down.
      stoppedFromInside = true
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
    finishObservers()
    if let monitor {
      // The reductions counted since the loop was last idle come before
      // `.stopped`.
      hooks?.tellReductions()
      for event in leftovers.compactMap(\.event) {
        monitor.report(.eventDiscarded(event, reason: .systemStopped))
      }
      monitor.report(.stopped)
    }
    finishObservers(waitingIn: leftovers)
    // Effects' tasks hold this core until they end; release the feedbacks'
    // closures now rather than then.
    releaseRuntimes()
    StateLink.releaseChain(&firstStateLink)
    EventLink.releaseChain(&firstEventLink)
    // No reduction begins once stopped (`beginReduction`): what the reducer
    // captures goes now, not with an Input that keeps this core.
    reducer?.release()
    reducer = nil
  }

  /// Stops from inside the drain: the caller owns the loop.
  @usableFromInline
  func finishStopping(restoring previousDrainer: UnsafeRawPointer?) {
    lock()
    _ = fl_word_set(word, Control.stopped)
    let leftovers = inbox.takeAll()
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
      switch OwnershipStateMachine.letGoStopped(observed: current) {
      case .publishFirst:
        publish()
      case .clearOwned(let desired, let destroysState):
        if destroysState { destroyState() }
        if fl_word_exchange_if(word, current, desired) { return }
      }
    }
  }

  /// Called by ``System``'s deinitializer, after `stop`: nothing a released
  /// system owned may outlive it, though an ``Input`` bound to it keeps this
  /// core (its target holds the core strongly, so that a send through it
  /// costs no reference counting; the one-input benchmark). The state, the copies published to
  /// readers and the monitor are destroyed by whoever owns the stopped
  /// loop: this thread now if the loop is free, else the owner when it lets
  /// the loop go. After this, nothing reads the state: nobody holds the
  /// ``System`` to read it, a send is refused under `lock` (with no monitor
  /// left to report it to), and the reducer, the feedbacks and the
  /// observers are gone with the teardown.
  @usableFromInline
  func systemReleased() {
    taking: while true {
      let current = fl_word_load(word)
      switch OwnershipStateMachine.release(observed: current) {
      case .tellOwner(let desired):
        // Another thread, or this one inside its own loop (a system released
        // from its observer), tears down at its next step and destroys the
        // state when it lets the loop go (`releaseAfterStopping`).
        if fl_word_exchange_if(word, current, desired) { return }
      case .waitForReader:
        fl_yield()
      case .takeAndTearDown(let desired):
        if fl_word_exchange_if(word, current, desired) { break taking }
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
    // Other threads read the monitor under `lock` (a send refused as
    // `systemStopped`, a drop): nobody holds the system any more to watch
    // it, and an Input that keeps this core must not keep what the monitor
    // captures (G9). Released outside the lock, where its captures' deinit
    // may run anything.
    let releasedMonitor = monitorBox
    monitorBox = nil
    unlock()
    _ = consume copy
    releasedMonitor?.release()
    stateStorage.deinitialize(count: 1)
  }
}
