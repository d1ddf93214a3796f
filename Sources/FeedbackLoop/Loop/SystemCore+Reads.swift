import CFeedbackLoopShims

// MARK: - Reads of the state from other threads (G15)

/// How a thread that does not own the loop reads the state: it never stalls
/// the owner for more than a copy, and waits itself for at most the step the
/// owner is in.
///
/// The owner mutates the state in place, so a reader must not copy it while
/// a reducer runs. Under `lock`, the reader sets `reader` in the control word
/// (one fetch-or, which also tells it whether the loop is owned):
///
/// - **Idle loop** (`owned` clear): nobody can take the loop while `reader`
///   is set (a sender's compare-and-swap from 0 fails and it queues under
///   `lock`, which the reader holds; ``SystemCore/acquire()`` waits for the
///   bit), so the reader copies the state and clears the bit. A sender waits
///   for that copy at most.
/// - **Owned loop**: the reader counts itself in `waitingReaders` and waits
///   for the next publication. The owner looks at the word once after each
///   reducer and at each step boundary (where it reads it anyway); seeing
///   `reader`, it copies the state into `published` under `lock`, counts a
///   publication and clears the bit. It never waits for a reader: only for
///   `lock`, which readers hold for a copy. It cannot let the loop go with
///   `reader` set (its compare-and-swap to 0 fails; ``SystemCore/releaseAfterStopping()``
///   publishes first), so a waiting reader is always answered.
///
/// A step boundary comes after the feedbacks and observers of the event in
/// progress; if the owner stays in their code longer than a short spin (it
/// might wait for the reader's own thread: a read from the main thread while
/// an observer hops to it synchronously, or two systems whose observers read
/// each other), the reader stops waiting and falls back to the reduction
/// guard, which waits only for a reducer running (`fl_read_begin`: one
/// `membarrier` on Linux), and so do the readers after it until the owner
/// publishes again (`stalled`). So a reader waits at most for the reducer
/// running, or for a short spin, and no cycle of readers can deadlock.
///
/// No read costs a system call while the owner keeps stepping, and an idle
/// read costs one lock pair and two atomic operations. Models/ownership.pml
/// checks the protocol with spin (Scripts/model-check).
extension SystemCore {
  /// The current state. The owning thread reads it directly; another thread
  /// copies it while the loop is idle, or gets a copy the owner publishes at
  /// its next step (below, G15).
  @inlinable
  var currentState: State {
    if isDrainingThread {
      precondition(!isReducing, "FeedbackLoop: a reducer read the system's state; reducers receive it as a parameter")
      return state
    }
    return readFromOtherThread()
  }

  /// Spins, then yields, this many times before the fallback: a few tens of
  /// microseconds, far longer than an owner's step that runs no slow code.
  @inlinable static var spinsBeforeFallback: Int { 2_048 }
  @inlinable static var yieldsBeforeFallback: Int { 16 }

  // Inlinable, so that the copy is specialized for the user's `State`:
  // unspecialized, it went through the runtime's value witnesses.
  @inlinable
  func readFromOtherThread() -> State {
    lock()
    let before = fl_word_set(word, Control.reader)
    if case .copyIdleState = OwnershipStateMachine.read(observed: before) {
      let copy = state
      _ = fl_word_clear(word, Control.reader)
      unlock()
      return copy
    }
    let seen = fl_publications_load(control)
    // A reader before gave up on this same step: the owner is still in it,
    // so this one does not wait either.
    let ownerStalled = fl_stalled_load(control) == seen &+ 1
    if !ownerStalled { waitingReaders += 1 }
    unlock()
    if !ownerStalled {
      if waitForPublication(after: seen) {
        lock()
        // Non-nil: it was published after this reader counted itself, and
        // is cleared only once no reader counts itself.
        let copy = published!
        waitingReaders -= 1
        if waitingReaders == 0 { published = nil }
        unlock()
        return copy
      }
      lock()
      waitingReaders -= 1
      if waitingReaders == 0 { published = nil }
      unlock()
      fl_stalled_store(control, seen &+ 1)
    }
    fl_read_begin(control)
    defer { fl_read_end(control) }
    return state
  }

  /// Whether a publication came after `seen` within the spin.
  @usableFromInline
  func waitForPublication(after seen: UInt64) -> Bool {
    for _ in 0..<Self.spinsBeforeFallback {
      if fl_publications_load(control) != seen { return true }
      fl_spin_pause()
    }
    for _ in 0..<Self.yieldsBeforeFallback {
      if fl_publications_load(control) != seen { return true }
      fl_yield()
    }
    return fl_publications_load(control) != seen
  }

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
