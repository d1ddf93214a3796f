import DequeModule
import FeedbackLoop

/// Records a system's timeline through its monitor hook: the last
/// `capacity` moments in memory (a bounded ring), and every moment in a
/// JSON Lines file when it is given a ``TimelineFileWriter``.
///
/// The loop never waits for the disk: the recorder hands each finished
/// moment to the writer's bounded buffer, and the writer encodes and writes
/// on a thread of its own; what does not fit is counted and reported
/// (``fileDroppedCount``, and a gap line in the file), never silently lost
/// (G14). Recording in memory needs nothing of `State` and `Event`.
///
/// ```swift
/// let recorder = Recorder<Search.State, Search.Event>(capacity: 1_000, clock: clock)
/// let system = System(
///   initial: Search.State(), reduceInPlace: Search.reduce, feedbacks: Search.feedbacks(api: api),
///   environment: SystemEnvironment(clock: clock), monitor: recorder.monitor
/// )
/// system.send(.queryChanged("swift"))
/// recorder.moments.map(\.event)  // [nil, .queryChanged("swift"), …]
/// ```
public final class Recorder<State: Sendable, Event: Sendable>: Sendable {
  /// The stream the recorder consumes; add other consumers to it to share it.
  public let stream: InspectionStream<State, Event>
  @usableFromInline let storage: RecorderStorage<State, Event>

  /// A recorder that keeps the last `capacity` moments in memory.
  ///
  /// - Parameters:
  ///   - capacity: how many moments the ring holds; the oldest go first.
  ///     `0` keeps none (with a file writer, the file has them all).
  ///   - system: the system's id in the inspection stream.
  ///   - clock: the system's clock, to stamp moments with its time; `nil` for none.
  @inlinable public init(
    capacity: Int = 1_000, system: String = InspectionStream<State, Event>.makeSystemID(),
    clock: (any Clock<Duration>)? = nil
  ) {
    precondition(capacity >= 0, "a recorder's capacity cannot be negative")
    storage = RecorderStorage(capacity: capacity, write: nil, writerDrops: nil)
    stream = InspectionStream(system: system, clock: clock)
    stream.add { [storage] in storage.consume($0) }
  }

  @inlinable init(
    capacity: Int, system: String, clock: (any Clock<Duration>)?,
    write: @escaping @Sendable (Moment<State, Event>) -> Void, writerDrops: @escaping @Sendable () -> UInt64
  ) {
    storage = RecorderStorage(capacity: capacity, write: write, writerDrops: writerDrops)
    stream = InspectionStream(system: system, clock: clock)
    stream.add { [storage] in storage.consume($0) }
  }

  /// The monitor to give the system (combine it with others with
  /// `SystemMonitor.combining(_:)`).
  ///
  /// Inlinable so that the monitor's closure, and the stream's `receive`
  /// under it, are specialized for `State` and `Event` in the caller: built
  /// here, generic, every activity paid for the generic enum's metadata and
  /// value witnesses (most of W1mem's cost; see BENCHMARKS.md).
  @inlinable public var monitor: SystemMonitor<State, Event> { stream.monitor }

  /// Records one inspected activity: for a recorder fed by a stream of
  /// someone else's (`stream.add(recorder.consume)`).
  @inlinable public func consume(_ inspection: Inspection<State, Event>) { storage.consume(inspection) }

  /// The moments in memory, oldest first; the last one is still open (its
  /// effects may grow) until the next event is reduced or the system stops.
  public var moments: [Moment<State, Event>] { storage.snapshot() }

  /// The moment numbered `sequence`, if it is still in memory.
  public func moment(_ sequence: UInt64) -> Moment<State, Event>? {
    moments.first { $0.sequence == sequence }
  }

  /// How many moments left the in-memory ring to make room (by design: the
  /// ring keeps the last `capacity`).
  public var evictedCount: UInt64 { storage.evicted }

  /// How many moments the file writer dropped because its buffer was full.
  public var fileDroppedCount: UInt64 { storage.writerDrops?() ?? 0 }
}

extension Recorder where State: Codable, Event: Codable {
  /// A recorder that keeps the last `capacity` moments in memory and writes
  /// every moment to `file`.
  ///
  /// ```swift
  /// let file = try TimelineFileWriter<Search.State, Search.Event>(url: url)
  /// let recorder = Recorder(capacity: 100, file: file)
  /// // … run the system, stop it …
  /// system.stop()               // the last moment reaches the writer
  /// let summary = file.finish()  // written, dropped
  /// ```
  @inlinable public convenience init(
    capacity: Int = 1_000, file: TimelineFileWriter<State, Event>,
    system: String = InspectionStream<State, Event>.makeSystemID(), clock: (any Clock<Duration>)? = nil
  ) {
    self.init(
      capacity: capacity, system: system, clock: clock, write: { file.append($0) },
      writerDrops: { file.droppedCount })
  }
}

/// The recorder's state, apart from the recorder so that the stream's
/// consumer can hold it without a cycle.
@usableFromInline
final class RecorderStorage<State: Sendable, Event: Sendable>: Sendable {
  @usableFromInline let capacity: Int
  @usableFromInline let write: (@Sendable (Moment<State, Event>) -> Void)?
  @usableFromInline let writerDrops: (@Sendable () -> UInt64)?
  @usableFromInline let shared = Locked(Shared())

  @usableFromInline struct Shared {
    /// The closed moments, oldest first, then the open one when
    /// `hasOpenMoment`: the open moment lives in the ring from the start, so
    /// closing it moves nothing and its effects grow in place (a `Moment`
    /// copied through an optional, per event, was most of W1mem's cost).
    @usableFromInline var ring = Deque<Moment<State, Event>>()
    @usableFromInline var hasOpenMoment = false
    @usableFromInline var nextSequence: UInt64 = 0
    @usableFromInline var evicted: UInt64 = 0
    /// Feedback references by index: a feedback's name is built from its
    /// label each time it is read, and it never changes while the system runs.
    @usableFromInline var feedbacks: [FeedbackReference?] = []

    @usableFromInline init() {}

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
      ring[ring.count - 1].effects.append(change)
    }

    @inlinable mutating func source(_ source: EventSource) -> MomentSource {
      switch source {
      case .external: .external
      case .feedback(let id): .feedback(reference(id))
      case .effect(let id): .effect(reference(id))
      }
    }
  }

  @usableFromInline init(
    capacity: Int, write: (@Sendable (Moment<State, Event>) -> Void)?, writerDrops: (@Sendable () -> UInt64)?
  ) {
    self.capacity = capacity
    self.write = write
    self.writerDrops = writerDrops
  }

  var evicted: UInt64 { shared.withLock { $0.evicted } }

  func snapshot() -> [Moment<State, Event>] {
    shared.withLock { Array($0.ring) }
  }

  @inlinable func consume(_ inspection: Inspection<State, Event>) {
    let closed: Moment<State, Event>? = shared.withLock { shared in
      switch inspection.activity {
      case .started(let initial):
        return open(Moment(sequence: shared.nextSequence, time: inspection.time, state: initial), in: &shared)
      case .reduced(let event, _, let state, let source):
        let moment = Moment<State, Event>(
          sequence: shared.nextSequence, time: inspection.time, event: event, source: shared.source(source),
          state: state)
        return open(moment, in: &shared)
      case .effectQueued(let id): shared.record(.queued, id)
      case .effectStarted(let id):
        shared.record(.started, id)
      case .effectCancelled(let id):
        shared.record(.cancelled, id)
      case .effectFinished(let id):
        shared.record(.finished, id)
      case .effectFailed(let id, let error):
        shared.record(.failed, id, error: String(describing: error))
      case .eventDiscarded(let event, let reason):
        // The open moment's, or after the stop the last moment's (in memory
        // only: the file has that moment already).
        if !shared.ring.isEmpty {
          shared.ring[shared.ring.count - 1].discarded.append(DiscardedEvent(event: event, reason: reason))
        }
      case .stopped:
        guard shared.hasOpenMoment else { return nil }
        shared.ring[shared.ring.count - 1].stopped = true
        let last = write == nil ? nil : shared.ring.last
        closeOpen(in: &shared)
        return last
      @unknown default:
        break
      }
      return nil
    }
    if let closed, let write { write(closed) }
  }

  /// Makes `moment` the open one; returns the one it closes when there is
  /// a file to write it to (a copy only then).
  @inlinable func open(_ moment: Moment<State, Event>, in shared: inout Shared) -> Moment<State, Event>? {
    let closed = shared.hasOpenMoment && write != nil ? shared.ring.last : nil
    closeOpen(in: &shared)
    shared.ring.append(moment)
    shared.hasOpenMoment = true
    shared.nextSequence += 1
    return closed
  }

  /// Closes the open moment, where it stands in the ring, and evicts the
  /// oldest closed moment if there are more than `capacity`.
  @inlinable func closeOpen(in shared: inout Shared) {
    guard shared.hasOpenMoment else { return }
    shared.hasOpenMoment = false
    if shared.ring.count > capacity {
      shared.ring.removeFirst()
      // With no ring (capacity 0) nothing is kept, so nothing is evicted.
      if capacity > 0 { shared.evicted += 1 }
    }
  }
}
