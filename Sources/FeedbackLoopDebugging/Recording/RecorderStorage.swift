import FeedbackLoop

/// The recorder's state, apart from the recorder so that its stream can
/// hold it without a cycle.
///
/// One lock guards it (the core's `Locked`: `Synchronization.Mutex` with a
/// hand-over that ThreadSanitizer sees, because it does not see the mutex
/// itself on Linux with Swift 6.3). The loop's reports come one at a time (the monitor
/// contract), so the lock is uncontended on the loop's side; it is there
/// for the others: refusals reported on senders' threads, `moments` read
/// from any thread, and a stream consumer catching up. It is the only lock
/// an activity takes while the recorder's stream has no other consumer (see
/// ``InspectionStream/receive(_:)``).
@usableFromInline
final class RecorderStorage<State: Sendable, Event: Sendable>: Sendable {
  @usableFromInline let capacity: Int
  /// Hands a closed moment to the file writer, if any: it builds the moment
  /// with the closure only if its buffer has room (else it counts a drop),
  /// called under this storage's lock so that the moment is built from the
  /// ring where it stands.
  @usableFromInline let write: (@Sendable (_ moment: () -> Moment<State, Event>) -> Void)?
  @usableFromInline let writerDrops: (@Sendable () -> UInt64)?
  @usableFromInline let shared: Locked<Shared>

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
    /// ``InspectionStream/receive(_:)``). Set under this lock, before the
    /// stream runs a consumer's catch-up.
    @usableFromInline var streamHasConsumers = false
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
    shared = Locked(Shared(capacity: capacity))
  }

  var evicted: UInt64 { shared.withLock { $0.evicted } }

  func snapshot() -> [Moment<State, Event>] {
    shared.withLock { shared in
      // The last `capacity` closed moments, and the open one.
      shared.ring.ordered(keepingLast: shared.hasOpenMoment ? capacity + 1 : capacity)
    }
  }

  /// Records `activity` unless the recorder's stream has other consumers;
  /// returns whether it did (if not, the stream records it under its own
  /// lock with ``record(_:time:)``, and delivers it).
  @inlinable func recordAlone(_ activity: SystemActivity<State, Event>, time: Duration?) -> Bool {
    // The common case (W1's) apart, the event and state taken out before the
    // lock: captured whole by the lock's closure, or switched over beside
    // the other cases, the activity was copied and destroyed through the
    // enum's value witnesses on every event.
    guard case .reduced(let event, _, let state, .external) = activity else {
      return recordAloneInGeneral(activity, time: time)
    }
    return shared.withLock { shared in
      guard !shared.streamHasConsumers else { return false }
      shared.activities += 1
      open(sequence: shared.nextSequence, time: time, event: event, detailedSource: nil, state: state, in: &shared)
      return true
    }
  }

  /// ``recordAlone(_:time:)`` for any activity.
  @inlinable @inline(never) func recordAloneInGeneral(_ activity: SystemActivity<State, Event>, time: Duration?)
    -> Bool
  {
    shared.withLock { shared in
      guard !shared.streamHasConsumers else { return false }
      shared.activities += 1
      apply(activity, time: time, to: &shared)
      return true
    }
  }

  /// Records `activity`; returns its number in the recorder's stream.
  @inlinable func record(_ activity: SystemActivity<State, Event>, time: Duration?) -> UInt64 {
    shared.withLock { shared in
      let number = shared.activities
      shared.activities += 1
      apply(activity, time: time, to: &shared)
      return number
    }
  }

  /// The recorder's stream has consumers besides the recorder from now on.
  func streamGainedConsumers() {
    shared.withLock { $0.streamHasConsumers = true }
  }

  /// Records one activity.
  @inlinable func apply(_ activity: SystemActivity<State, Event>, time: Duration?, to shared: inout Shared) {
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
    case .effectFailed(let id, let error): shared.record(.failed, id, error: String(describing: error))
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
      if let write { write { shared.ring.newest } }
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
    if let write, shared.hasOpenMoment { write { shared.ring.newest } }
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
