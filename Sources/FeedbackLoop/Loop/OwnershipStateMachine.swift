/// The ownership protocol of a system's loop as a state machine: which
/// thread owns the loop, and what each party does next, decided from one
/// reading of the control word.
///
/// In the style of apple/swift-async-algorithms' `…StateMachine` structs,
/// the decisions are kept apart from the memory they are about: every
/// transition here is a pure function of the word a thread read (and of
/// what that thread knows of itself), and returns what to do, with the word
/// to install by compare-and-swap where there is one. ``SystemCore`` reads
/// the word, asks here, and does it: the atomic operations, the lock and
/// the queues stay there. So each transition is tested one by one without
/// threads (OwnershipStateMachineTests), and Models/ownership.pml checks the
/// interleavings of the same protocol with spin.
///
/// Owns nothing and touches nothing: any thread may call it. Every function
/// is inlined into the loop's specialized code, where it compiles to the
/// same tests of bits as the checks written out in place did (the one-input benchmark, the ping-pong benchmark, the hundred-feedbacks benchmark).
@usableFromInline
enum OwnershipStateMachine {
  /// The bits of the control word.
  @usableFromInline
  enum Bits {
    /// A thread owns the loop: it drains, reads the state, or tears down.
    @inlinable static var owned: UInt64 { 1 }
    /// The shared inbox holds work. Set and cleared under the system's lock.
    @inlinable static var queued: UInt64 { 2 }
    /// The system stopped, or is stopping: for good.
    @inlinable static var stopped: UInt64 { 4 }
    /// A reader on another thread, under the lock: with `owned`, it waits for
    /// the owner to publish a copy of the state; without, it copies the
    /// state of the idle loop, which nobody may take meanwhile
    /// (SystemCore+Reads.swift).
    @inlinable static var reader: UInt64 { 8 }
    /// The ``System`` was released (set after `stopped`): the owner that
    /// lets the stopped loop go destroys the state.
    @inlinable static var released: UInt64 { 16 }
  }

  // MARK: - Taking the loop

  /// A send that may drain takes an idle loop, from 0 to `owned`: the word
  /// to install, or `nil` when the loop is not idle (owned, stopped, work or
  /// a reader waiting) and the send must queue.
  @inlinable @inline(__always)
  static func takeIdleLoop(observed: UInt64, mayDrain: Bool) -> UInt64? {
    mayDrain && observed == 0 ? Bits.owned : nil
  }

  /// What a thread that wants the loop whatever else the word says (a
  /// stop, a drain of queued work, a send that queued first) does.
  @usableFromInline
  enum Acquire: Equatable {
    /// Install this word: the loop is then the caller's.
    case take(UInt64)
    /// A reader copies the idle loop's state: wait for it, then look again.
    case waitForReader
    /// Another thread owns the loop; it handles what the word says.
    case ownedElsewhere
  }

  @inlinable @inline(__always)
  static func acquire(observed: UInt64) -> Acquire {
    if observed & Bits.owned != 0 { return .ownedElsewhere }
    if observed & Bits.reader != 0 { return .waitForReader }
    return .take(observed | Bits.owned)
  }

  /// Whether a drain of queued work (a main-actor system's hop,
  /// `processQueuedEvents()`) should try to take the loop: work is queued
  /// and no thread owns it.
  @inlinable @inline(__always)
  static func shouldDrainQueuedWork(observed: UInt64) -> Bool {
    observed & (Bits.queued | Bits.owned) == Bits.queued
  }

  // MARK: - The owner's own sends

  /// Where the owner's own send goes (G2, G14).
  @usableFromInline
  enum OwnerSend: Equatable {
    /// The owner's queue: ahead of anything other threads send later.
    case ownQueue
    /// The shared inbox, behind what other threads sent first; or, if the
    /// system stopped, refused there.
    case sharedInbox
  }

  /// The owner's queue takes the send only while the buffer has no limit
  /// (a limit counts every sender's events, in the inbox) and the word says
  /// neither `queued` nor `stopped`: only the owner clears `queued`, so the
  /// inbox stays empty until the owner appends.
  @inlinable @inline(__always)
  static func ownerSend(observed: UInt64, bounded: Bool) -> OwnerSend {
    !bounded && observed & (Bits.queued | Bits.stopped) == 0 ? .ownQueue : .sharedInbox
  }

  /// What a sender on another thread does once it queued its item under the
  /// lock and set `queued` (`observed` is the word before it set the bit).
  @usableFromInline
  enum AfterQueuing: Equatable {
    /// A thread owns the loop: it sees `queued` before it lets go.
    case ownerTakesIt
    /// The loop is free and this sender may drain: take it.
    case takeLoop
    /// The loop is free, but only the main actor may drain: hop there.
    case hopToMainActor
  }

  @inlinable @inline(__always)
  static func afterQueuing(observed: UInt64, mayDrain: Bool) -> AfterQueuing {
    if observed & Bits.owned != 0 { return .ownerTakesIt }
    return mayDrain ? .takeLoop : .hopToMainActor
  }

  // MARK: - The owner's step boundary

  /// What the owner does between two steps.
  @usableFromInline
  enum Step: Equatable {
    /// Only `owned` is set: take the owner's queue, or if it is empty, let
    /// the loop go by installing 0 over `owned` (and look again if that
    /// fails: another bit came meanwhile).
    case ownQueueOrLetGo
    /// `stopped`: tear down, and let the loop go for good.
    case finishStopping
    /// Something else is set: publish the state first if a reader waits,
    /// then take the owner's queue, else the inbox if `queued`, else look
    /// again.
    case interrupted(publish: Bool, inbox: Bool)
  }

  @inlinable @inline(__always)
  static func step(observed: UInt64) -> Step {
    if observed == Bits.owned { return .ownQueueOrLetGo }
    if observed & Bits.stopped != 0 { return .finishStopping }
    return .interrupted(publish: readerWaits(observed), inbox: observed & Bits.queued != 0)
  }

  /// Whether a pass must end before its next handler: `stop()` was called,
  /// from any thread or any callback (G9).
  @inlinable @inline(__always)
  static func isStopped(_ observed: UInt64) -> Bool { observed & Bits.stopped != 0 }

  /// Whether a thread runs the loop, or work waits in the shared inbox.
  static func hasWorkInFlight(_ observed: UInt64) -> Bool { observed & (Bits.owned | Bits.queued) != 0 }

  // MARK: - Reading from another thread (G15)

  /// What a reader on another thread does once it set `reader` under the
  /// lock (`observed` is the word before it set the bit).
  @usableFromInline
  enum Read: Equatable {
    /// No thread owns the loop, and none can take it while `reader` is set:
    /// copy the state, then clear the bit.
    case copyIdleState
    /// A thread owns the loop: wait for it to publish a copy at its next
    /// step (or fall back to the reduction guard after a short spin).
    case waitForPublication
  }

  @inlinable @inline(__always)
  static func read(observed: UInt64) -> Read {
    observed & Bits.owned == 0 ? .copyIdleState : .waitForPublication
  }

  /// Whether the owner publishes a copy of the state for a waiting reader:
  /// after each reducer, and at each step boundary.
  @inlinable @inline(__always)
  static func readerWaits(_ observed: UInt64) -> Bool { observed & Bits.reader != 0 }

  // MARK: - Letting a stopped loop go

  /// What the owner of a stopped loop does to let it go for good.
  @usableFromInline
  enum LetGoStopped: Equatable {
    /// A reader waits: publish, then look again.
    case publishFirst
    /// Install this word (`owned` cleared, the rest kept); destroy the
    /// state first if the ``System`` was released.
    case clearOwned(UInt64, destroyState: Bool)
  }

  @inlinable
  static func letGoStopped(observed: UInt64) -> LetGoStopped {
    if readerWaits(observed) { return .publishFirst }
    return .clearOwned(observed & ~Bits.owned, destroyState: observed & Bits.released != 0)
  }

  /// What the release of the ``System`` does.
  @usableFromInline
  enum Release: Equatable {
    /// A thread owns the loop: install this word (`released` added), and
    /// that owner destroys the state when it lets the loop go.
    case tellOwner(UInt64)
    /// A reader copies the idle loop's state: wait, then look again.
    case waitForReader
    /// The loop is free: install this word (`released` and `owned`) and
    /// tear down here.
    case takeAndTearDown(UInt64)
  }

  @inlinable
  static func release(observed: UInt64) -> Release {
    if observed & Bits.owned != 0 { return .tellOwner(observed | Bits.released) }
    if observed & Bits.reader != 0 { return .waitForReader }
    return .takeAndTearDown(observed | Bits.released | Bits.owned)
  }
}
