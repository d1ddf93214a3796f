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
/// read costs one lock pair and two atomic operations.
///
/// A bitwise-copyable state (no references: `Int`, a struct of numbers) is
/// first read optimistically, without the lock and without asking the
/// owner anything: the reduction guard's sequence is odd while a reducer
/// runs and moves on after each, so a copy of the state's bytes taken
/// between two equal even values of it is a state between two reductions
/// (a seqlock; `fl_sequence_read_begin`). The owner never waits for such a
/// reader, nor learns of it; it only finds the lines the reader loaded
/// shared. After a few attempts that a reduction spoiled, the reader takes
/// the protocol above, so it waits no longer than it would have. A state
/// that holds references cannot be read so: the reducer could release an
/// object between the reader's copy of its address and the retain.
///
/// A thread that reads a busy system again and again pauses a little after
/// each read (``paceIfPolling(_:nanoseconds:)``), so that however often it
/// reads, it cannot take the owner's cache lines at every event.
///
/// This file is the reader's side; the owner's (`publishIfAsked`,
/// `publish`) is part of its drain, in SystemCore+Drain.swift.
///
/// Models/ownership.pml checks the protocol with spin, the optimistic read
/// included (Scripts/model-check).
extension SystemCore {
  /// The current state. The owning thread reads it directly; another thread
  /// copies it while the loop is idle, or gets a copy the owner publishes at
  /// its next step (below, G15).
  @inlinable
  var currentState: State {
    if isDrainingThread {
      // `fatalError`, not `precondition`: an optimized build drops a
      // precondition's message, and a misuse must say what it was.
      if isReducing {
        fatalError("FeedbackLoop: a reducer read the system's state; reducers receive it as a parameter")
      }
      return state
    }
    return readFromOtherThread()
  }

  /// Spins, then yields, this many times before the fallback: a few tens of
  /// microseconds, far longer than an owner's step that runs no slow code.
  @inlinable static var spinsBeforeFallback: Int { 2_048 }
  @inlinable static var yieldsBeforeFallback: Int { 16 }

  /// Optimistic reads tried before the protocol: each fails only if a
  /// reduction overlapped it.
  @inlinable static var optimisticAttempts: Int { 8 }

  /// How long a read pauses when its thread polls a busy system (see
  /// ``paceIfPolling(_:nanoseconds:)``): an optimistic read, which costs
  /// the owner a cache line, and a read through the owner, which costs it a
  /// copy, the lock and a few lines, among them the reference counts of the
  /// state's objects, which both threads write. After a read through the
  /// owner, with 1 µs the sender kept 26% to 56% of its throughput in
  /// twelve runs, with 2 µs 52% to 82%, with 3 µs 57% to 85% (the
  /// reference-state reader benchmark, BENCHMARKS.md): 3 µs, so that a
  /// poller of such a state costs the owner less than half in every run,
  /// for a paced poller's 0.2 to 0.3 million reads a second instead of
  /// 0.4 to 0.6. An optimistic read pauses 300 ns on the clock (about
  /// 340 with the clock's own reads): with 400 the reader of an `Int`
  /// went above a microsecond a read in one run of twelve, with 300 the
  /// sender kept 50% to 62% and the reader stayed under (W10, W10reads).
  @inlinable static var pollingPause: UInt64 { 300 }
  @inlinable static var pollingPauseThroughOwner: UInt64 { 3_000 }

  // Inlinable, so that the copy is specialized for the user's `State`:
  // unspecialized, it went through the runtime's value witnesses.
  @inlinable
  func readFromOtherThread() -> State {
    guard fl_optimistic_reads_available else { return readThroughOwner() }
    // Constant once specialized: a state with references skips it whole.
    if _isPOD(State.self), let (copy, sequence) = readOptimistically() {
      paceIfPolling(sequence, nanoseconds: Self.pollingPause)
      return copy
    }
    let copy = readThroughOwner()
    paceIfPolling(fl_sequence_read_begin(control), nanoseconds: Self.pollingPauseThroughOwner)
    return copy
  }

  /// Spaces out the reads of a thread that reads this system again and
  /// again while it reduces (it read this system before, with at most three
  /// other systems read since, and found the sequence moved since then).
  ///
  /// Each read loads the guard's line (and the state's); the owner's next
  /// reduction then waits for that line to come back (a cache miss, about
  /// 50 ns here), and a reader in a tight loop made the owner pay it at
  /// every event (the sender-with-a-reader benchmark: the sender kept a fifth of its throughput, or less).
  /// A pause of a few hundred nanoseconds between such reads bounds what a
  /// poller costs the owner, and still lets it read millions of times a
  /// second. The reader waits for nothing during it: the pause comes after
  /// its copy. A thread that reads an idle system, or runs another
  /// system's loop, or made the system's last reduction itself, never
  /// pauses; one that reads a system that reduced since its last read of it
  /// pauses once, and again while the system goes on reducing within its
  /// last 256 reads of it (`fl_read_should_pause`). The thread remembers
  /// the last four systems it read (`FL_READ_MEMORY`), so reading an idle
  /// system between two reads of a busy one does not escape the pause (the
  /// alternating-reader benchmark); a thread that reads five systems or
  /// more in turn is not paced.
  @inlinable
  func paceIfPolling(_ sequence: UInt64, nanoseconds: UInt64) {
    if fl_read_should_pause(control, sequence) { fl_spin_for(nanoseconds) }
  }

  /// A copy of the state's bytes taken while no reducer ran, or nil after
  /// ``optimisticAttempts`` overlapped one. Only for a bitwise-copyable
  /// state: the copy is racy until the sequence says it was not.
  @inlinable
  func readOptimistically() -> (State, sequence: UInt64)? {
    for _ in 0..<Self.optimisticAttempts {
      let before = fl_sequence_read_begin(control)
      if before & 1 == 0 {
        // A racy copy of plain bytes (the state holds no reference, so a
        // torn copy is never retained), kept only if the sequence says no
        // reduction overlapped it.
        let copy = UnsafePointer(stateStorage).pointee
        if fl_sequence_read_validate(control, before) { return (copy, before) }
      }
      fl_spin_pause()
    }
    return nil
  }

  @inlinable
  func readThroughOwner() -> State {
    // The reducer running on this very thread (it sent to another, idle
    // system, which ran that system's loop inline, whose callback reads
    // this one): waiting for the reduction would wait for this thread.
    if fl_reducing_on_this_thread(control) {
      fatalError(
        "FeedbackLoop: a system's state was read during its own reducer, from code the reducer reached through a send to another system; reducers receive the state as a parameter and must not send to systems whose callbacks read it"
      )
    }
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
}
