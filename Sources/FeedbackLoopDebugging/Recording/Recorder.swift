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
///   initial: Search.State(), reduce: Search.reduce, feedbacks: Search.feedbacks(api: api),
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
  ///   - parent: the id of the system that runs this one as a child, if any
  ///     (``childRecorder(id:capacity:clock:)`` fills it in).
  ///   - clock: the system's clock, to stamp moments with its time; `nil` for none.
  @inlinable public init(
    capacity: Int = 1_000, system: String = InspectionStream<State, Event>.makeSystemID(), parent: String? = nil,
    clock: (any Clock<Duration>)? = nil
  ) {
    // A misuse: stopped with its message in optimized builds too (a precondition's is dropped).
    if capacity < 0 { fatalError("FeedbackLoopDebugging: a recorder's capacity cannot be negative (\(capacity))") }
    storage = RecorderStorage(capacity: capacity, write: nil, writerDrops: nil)
    stream = InspectionStream(system: system, parent: parent, clock: clock, recorder: storage)
  }

  @inlinable init(
    capacity: Int, system: String, parent: String?, clock: (any Clock<Duration>)?,
    write: @escaping @Sendable (_ moment: () -> Moment<State, Event>) -> Void,
    writerDrops: @escaping @Sendable () -> UInt64
  ) {
    if capacity < 0 { fatalError("FeedbackLoopDebugging: a recorder's capacity cannot be negative (\(capacity))") }
    storage = RecorderStorage(capacity: capacity, write: write, writerDrops: writerDrops)
    stream = InspectionStream(system: system, parent: parent, clock: clock, recorder: storage)
  }

  /// The monitor to give the system (combine it with others with
  /// `SystemMonitor.combining(_:)`).
  ///
  /// Inlinable so that the monitor's closure, and the stream's `receive`
  /// under it, are specialized for `State` and `Event` in the caller: built
  /// here, generic, every activity paid for the generic enum's metadata and
  /// value witnesses (most of the in-memory recording benchmark's cost; see BENCHMARKS.md). The
  /// recorder is its stream's own consumer, called directly: while the
  /// stream has no other consumer, an activity builds no ``Inspection`` and
  /// the loop's reports take no lock (see `RecorderStorage`); a reduction
  /// comes through the monitor's shortcut, without the `SystemActivity` enum.
  @inlinable public var monitor: SystemMonitor<State, Event> { stream.monitor }

  /// Records one inspected activity: for a recorder fed by a stream of
  /// someone else's (`stream.add(recorder.consume)`).
  @inlinable public func consume(_ inspection: Inspection<State, Event>) {
    let failure = inspection.errorDescription ?? RecorderStorage.failure(of: inspection.activity)
    _ = storage.record(inspection.activity, failure: failure, time: inspection.time)
  }

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
    system: String = InspectionStream<State, Event>.makeSystemID(), parent: String? = nil,
    clock: (any Clock<Duration>)? = nil
  ) {
    self.init(
      capacity: capacity, system: system, parent: parent, clock: clock, write: { file.append(making: $0) },
      writerDrops: { file.droppedCount })
  }
}
