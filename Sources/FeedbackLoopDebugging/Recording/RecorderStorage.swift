import FeedbackLoop
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Gives the processor to another thread.
@usableFromInline func yieldThread() {
  _ = sched_yield()
}

/// The recorder's state, apart from the recorder so that its stream can
/// hold it without a cycle.
///
/// The loop writes it without a lock. The monitor contract says the loop's
/// reports come one at a time, each owner of the loop after the one
/// before; the recorder's only other callers are the rare ones: refusals
/// reported on senders' threads, `moments` and `evictedCount` read from any
/// thread, a consumer joining the stream. Those take ``exclusive`` (a lock
/// among themselves) and then keep the loop out with a Dekker handshake of
/// two flags: each side raises its own with a sequentially consistent
/// store and then reads the other's, so at least one of them sees the
/// other's flag raised: the loop (``loopInside``) then steps aside to the
/// lock, and the other side (``othersWaiting``) waits for the loop's flag to
/// drop. The loop's side costs one locked instruction (the store) where
/// `Locked`'s mutex cost two (its take and its release: 73% of
/// `recordAlone`, 18% of the in-memory recording benchmark); the other side spins only while the loop
/// is writing one moment. A seqlock (readers copying while the loop writes,
/// and retrying) would not do: a `State` holding references cannot be read
/// while it is being overwritten.
///
/// ThreadSanitizer sees each edge: the loop's release of `loopInside` to
/// the waiter's acquiring read of it; the waiter's release of
/// `othersWaiting` to the loop's next read of it; between waiters, the
/// lock (`Locked`, whose hand-over the sanitizer sees); between the loop's
/// owners, the core's control word.
@usableFromInline
final class RecorderStorage<State: Sendable, Event: Sendable>: @unchecked Sendable {
  // @unchecked: `shared` is a variable, written by the loop alone while
  // `loopInside` is raised and `othersWaiting` is not, and by anyone else
  // only under `exclusive` once `loopInside` is down (see above).
  @usableFromInline let capacity: Int
  /// Hands a closed moment to the file writer, if any: it builds the moment
  /// with the closure only if its buffer has room (else it counts a drop),
  /// called while the ring is held, so that the moment is built from the
  /// ring where it stands.
  @usableFromInline let write: (@Sendable (_ moment: () -> Moment<State, Event>) -> Void)?
  @usableFromInline let writerDrops: (@Sendable () -> UInt64)?
  @exclusivity(unchecked) @usableFromInline var shared: Shared
  /// Taken by every writer and reader but the loop.
  @usableFromInline let exclusive = Locked<Void>()
  /// Raised while the loop writes `shared` without the lock.
  @usableFromInline let loopInside = Atomic<Int>(0)
  /// Raised while a holder of `exclusive` uses `shared`.
  @usableFromInline let othersWaiting = Atomic<Int>(0)

  @usableFromInline struct Shared: Sendable {
    /// The closed moments, oldest first, then the open one when
    /// `hasOpenMoment`: the open moment lives in the ring from the start, so
    /// closing it moves nothing and its effects grow in place.
    @usableFromInline var ring: MomentRing<State, Event>
    @usableFromInline var hasOpenMoment = false
    @usableFromInline var nextSequence: UInt64 = 0
    @usableFromInline var evicted: UInt64 = 0
    /// How many activities were recorded: the numbers of the recorder's own
    /// stream, counted here so that they need no lock of the stream's.
    @usableFromInline var activities: UInt64 = 0
    /// Whether the recorder's stream has consumers besides the recorder:
    /// then each activity goes through the stream's lock (see
    /// ``InspectionStream/report(_:)``). Set by `exclusively`, before the
    /// stream runs a consumer's catch-up.
    @usableFromInline var streamHasConsumers = false
    /// How many systems reported `.started` to this recorder. A recorder
    /// records one system; one given to a second system (the same monitor
    /// passed twice) would have two loops writing the ring at once, so from
    /// the second start on every report takes the lock (see ``asTheLoop(_:)``).
    @usableFromInline var startedSystems = 0
    @usableFromInline var recordsManySystems = false
    /// Feedback references by index: a feedback's name is built from its
    /// label each time it is read, and it never changes while the system runs.
    @usableFromInline var feedbacks: [FeedbackReference?] = []

    @usableFromInline init(capacity: Int) { ring = MomentRing(capacity: capacity) }

    @inlinable mutating func reference(_ id: FeedbackID) -> FeedbackReference {
      if id.index < feedbacks.count, let known = feedbacks[id.index] { return known }
      let reference = FeedbackReference(id)
      if id.index >= feedbacks.count {
        feedbacks.append(contentsOf: repeatElement(nil, count: id.index - feedbacks.count + 1))
      }
      feedbacks[id.index] = reference
      return reference
    }

    @inlinable mutating func reference(_ id: EffectID) -> EffectReference {
      EffectReference(feedback: reference(id.feedback), number: id.number, trigger: id.trigger)
    }

    @inlinable mutating func record(_ kind: EffectChange.Kind, _ id: EffectID, error: String? = nil) {
      guard hasOpenMoment else { return }
      let change = EffectChange(kind: kind, effect: reference(id), error: error)
      ring.appendEffect(change)
    }

    /// The source of an event, `nil` when it came from outside.
    @inlinable mutating func detailedSource(_ source: EventSource) -> MomentSource? {
      switch source {
      case .external: nil
      case .feedback(let id): .feedback(reference(id))
      case .effect(let id): .effect(reference(id))
      }
    }
  }

  @usableFromInline init(
    capacity: Int, write: (@Sendable (_ moment: () -> Moment<State, Event>) -> Void)?,
    writerDrops: (@Sendable () -> UInt64)?
  ) {
    self.capacity = capacity
    self.write = write
    self.writerDrops = writerDrops
    shared = Shared(capacity: capacity)
  }

  var evicted: UInt64 { exclusively { $0.evicted } }

  func snapshot() -> [Moment<State, Event>] {
    exclusively { shared in
      // The last `capacity` closed moments, and the open one.
      shared.ring.ordered(keepingLast: shared.hasOpenMoment ? capacity + 1 : capacity)
    }
  }

  /// Runs `body` with `shared` as one of the others (not the loop): under
  /// `exclusive`, once the loop is out; the loop, meanwhile, goes through
  /// `exclusive` too.
  @inlinable func exclusively<Result>(_ body: (inout Shared) -> Result) -> Result {
    let (result, released) = exclusivelyHandingOverReleased(body)
    // Released out of the lock: see `MomentRing.takeReleased()`.
    withExtendedLifetime(released) {}
    return result
  }

  /// ``exclusively(_:)``, handing what the ring overwrote to the caller to
  /// release once it is out of its own locks too.
  @inlinable func exclusivelyHandingOverReleased<Result>(
    _ body: (inout Shared) -> Result
  ) -> (Result, MomentRing<State, Event>.Released) {
    exclusive.withLock {
      othersWaiting.store(1, ordering: .sequentiallyConsistent)
      defer { othersWaiting.store(0, ordering: .releasing) }
      var spins = 0
      while loopInside.load(ordering: .sequentiallyConsistent) != 0 {
        // The loop is writing one moment; if it was preempted meanwhile,
        // give it the core rather than spin through its time slice.
        spins += 1
        if spins > 64 { yieldThread() }
      }
      let result = body(&shared)
      return (result, shared.ring.takeReleased())
    }
  }

  /// Runs `body` with `shared` as the loop, which alone calls it (one
  /// report at a time): without the lock unless someone else holds it or
  /// waits for it.
  @inlinable @inline(__always) func asTheLoop<Result>(_ body: (inout Shared) -> Result) -> Result {
    loopInside.store(1, ordering: .sequentiallyConsistent)
    // `recordsManySystems` is written only by `exclusively`, which waits
    // for this flag to drop: read after the handshake, it is never read
    // while being written.
    guard othersWaiting.load(ordering: .sequentiallyConsistent) == 0, !shared.recordsManySystems else {
      loopInside.store(0, ordering: .releasing)
      return exclusively(body)
    }
    let result = body(&shared)
    let released = shared.ring.takeReleased()
    loopInside.store(0, ordering: .releasing)
    // Released once the flag is down: see `MomentRing.takeReleased()`.
    withExtendedLifetime(released) {}
    return result
  }

  /// Records an external event's reduction unless the recorder's stream has
  /// other consumers; returns whether it did (if not, the stream records
  /// it under its own lock with ``record(_:time:)``, and delivers it). The
  /// loop's own report (the monitor's `.reduced` shortcut).
  @inlinable @inline(never) func recordAlone(
    reducing event: Event, to state: State, source: EventSource, time: Duration?
  ) -> Bool {
    asTheLoop { shared in
      guard !shared.streamHasConsumers else { return false }
      shared.activities += 1
      let detailedSource = shared.detailedSource(source)
      open(
        sequence: shared.nextSequence, time: time, event: event, detailedSource: detailedSource, state: state,
        in: &shared)
      return true
    }
  }

  /// ``recordAlone(reducing:to:source:time:)`` for an event sent from outside.
  @inlinable func recordAlone(reducing event: Event, to state: State, time: Duration?) -> Bool {
    asTheLoop { shared in
      guard !shared.streamHasConsumers else { return false }
      shared.activities += 1
      open(sequence: shared.nextSequence, time: time, event: event, detailedSource: nil, state: state, in: &shared)
      return true
    }
  }

  /// Records `activity` unless the recorder's stream has other consumers;
  /// returns whether it did (as ``recordAlone(reducing:to:source:time:)``).
  @inlinable @inline(never) func recordAlone(_ activity: SystemActivity<State, Event>, time: Duration?) -> Bool {
    // A refusal comes from the sender's thread, and the stop may come from
    // the stopping thread: only the loop's own reports skip the lock. A
    // start is rare, and counts the systems this recorder records.
    switch activity {
    case .started:
      return exclusively { shared in
        shared.startedSystems += 1
        if shared.startedSystems > 1 { shared.recordsManySystems = true }
        return recordAlone(activity, failure: nil, time: time, in: &shared)
      }
    case .eventDiscarded, .stopped: return exclusively { recordAlone(activity, failure: nil, time: time, in: &$0) }
    case .effectFailed(_, let error):
      let failure = String(describing: error)
      return asTheLoop { recordAlone(activity, failure: failure, time: time, in: &$0) }
    default: return asTheLoop { recordAlone(activity, failure: nil, time: time, in: &$0) }
    }
  }

  /// ``recordAlone(_:time:)`` for a caller that is not a system's loop (an
  /// activity handed to the stream's public `receive(_:)`): always under
  /// the lock.
  @inlinable func recordAloneFromOutside(_ activity: SystemActivity<State, Event>, time: Duration?) -> Bool {
    let failure = Self.failure(of: activity)
    return exclusively { recordAlone(activity, failure: failure, time: time, in: &$0) }
  }

  @inlinable func recordAlone(
    _ activity: SystemActivity<State, Event>, failure: String?, time: Duration?, in shared: inout Shared
  ) -> Bool {
    guard !shared.streamHasConsumers else { return false }
    shared.activities += 1
    apply(activity, failure: failure, time: time, to: &shared)
    return true
  }

  /// Records `activity`, under the lock of a stream that serializes it;
  /// returns its number in the recorder's stream. `failure` is
  /// ``failure(of:)``, described before any lock was taken.
  @inlinable func record(_ activity: SystemActivity<State, Event>, failure: String?, time: Duration?) -> UInt64 {
    let (number, released) = recordHandingOverReleased(activity, failure: failure, time: time)
    withExtendedLifetime(released) {}
    return number
  }

  /// ``record(_:failure:time:)``, handing what the ring overwrote to the
  /// caller, to release once it is out of its own lock too (the stream's):
  /// a `deinit` run there may send to the system, whose report takes that lock.
  @inlinable func recordHandingOverReleased(
    _ activity: SystemActivity<State, Event>, failure: String?, time: Duration?
  ) -> (number: UInt64, released: MomentRing<State, Event>.Released) {
    exclusivelyHandingOverReleased { shared in
      let number = shared.activities
      shared.activities += 1
      apply(activity, failure: failure, time: time, to: &shared)
      return number
    }
  }

  /// The description of an effect's error, for an `.effectFailed`.
  ///
  /// Made before the recorder's section (and the stream's lock), never in
  /// it: `description` is the app's code, which may read the recorder, or
  /// send to a system whose refusal is then reported on this same thread;
  /// either would wait, inside the section, for this thread to leave it.
  @inlinable static func failure(of activity: SystemActivity<State, Event>) -> String? {
    if case .effectFailed(_, let error) = activity { String(describing: error) } else { nil }
  }

  /// The recorder's stream has consumers besides the recorder from now on.
  func streamGainedConsumers() {
    exclusively { $0.streamHasConsumers = true }
  }

  /// Records one activity.
  @inlinable func apply(
    _ activity: SystemActivity<State, Event>, failure: String?, time: Duration?, to shared: inout Shared
  ) {
    switch activity {
    case .started(let initial):
      open(sequence: shared.nextSequence, time: time, event: nil, detailedSource: nil, state: initial, in: &shared)
    case .reduced(let event, _, let state, let source):
      let source = shared.detailedSource(source)
      open(sequence: shared.nextSequence, time: time, event: event, detailedSource: source, state: state, in: &shared)
    case .effectQueued(let id): shared.record(.queued, id)
    case .effectStarted(let id): shared.record(.started, id)
    case .effectCancelled(let id): shared.record(.cancelled, id)
    case .effectFinished(let id): shared.record(.finished, id)
    case .effectFailed(let id, _): shared.record(.failed, id, error: failure)
    case .eventDiscarded(let event, let reason):
      // The open moment's, or after the stop the last moment's (in memory
      // only: the file has that moment already).
      if !shared.ring.isEmpty {
        let discarded = DiscardedEvent(event: event, reason: reason)
        shared.ring.appendDiscarded(discarded)
      }
    case .stopped:
      guard shared.hasOpenMoment else { return }
      shared.hasOpenMoment = false
      // Closed, the moment takes the place of the oldest one kept.
      if shared.ring.isFull, capacity > 0 { shared.evicted += 1 }
      shared.ring.markNewestStopped()
      write?({ shared.ring.newest })
    @unknown default:
      break
    }
  }

  /// Opens a moment in the ring, closing the open one where it stands (and
  /// handing it to the file writer), and overwriting the oldest once the
  /// ring is full.
  @inlinable func open(
    sequence: UInt64, time: Duration?, event: Event?, detailedSource: MomentSource?, state: State,
    in shared: inout Shared
  ) {
    // Called through the optional chain, the writer's closure is borrowed:
    // bound with `if let`, it was retained and released per moment (the file recording benchmark).
    if shared.hasOpenMoment { write?({ shared.ring.newest }) }
    let overwrote = shared.ring.open(
      sequence: sequence, time: time, event: event, detailedSource: detailedSource, state: state)
    // With no ring (capacity 0) nothing is kept, so nothing is evicted.
    if overwrote, capacity > 0 {
      shared.evicted += 1
    }
    shared.hasOpenMoment = true
    shared.nextSequence += 1
  }
}
