import FeedbackLoop
import Foundation

/// Turns a system's monitor hook into a stream of ``Inspection`` values for
/// any number of consumers: the recorder, the monitor's client, a log.
///
/// Each activity gets a number and a time, passes the `filter`, and reaches
/// every consumer, one activity at a time and in order: one thread at a
/// time delivers, out of the stream's lock, and an activity reported
/// meanwhile (by another thread, or by a consumer that sends to the system
/// or adds a consumer) is queued and delivered after, by the thread
/// delivering. Consumers should be quick: that thread is often the system's
/// loop. Consumers added later see only what happens after.
///
/// ```swift
/// let recorder = Recorder<Search.State, Search.Event>(capacity: 1_000)
/// let stream = InspectionStream<Search.State, Search.Event>(system: "search", clock: clock)
/// stream.add(recorder.consume)
/// stream.add { inspection in
///   if let line = InspectionMessage(inspection, serializer: .codable)?.jsonLine() { print(line) }
/// }
/// let system = System(initial: .init(), reduce: Search.reduce, monitor: stream.monitor)
/// ```
public final class InspectionStream<State: Sendable, Event: Sendable>: Sendable {
  /// The id given to systems that are not named: unique in the process.
  public static func makeSystemID() -> String { "system-" + UUID().uuidString.prefix(8).lowercased() }

  /// The id of the system this stream inspects.
  public let system: String
  /// The id of the system that owns it, if any.
  public let parent: String?
  @usableFromInline let elapsed: ElapsedTime?
  @usableFromInline let filter: @Sendable (Inspection<State, Event>) -> Bool
  /// The recorder whose stream this is, called directly rather than as a
  /// consumer (it numbers the activities too; see ``report(_:)``).
  @usableFromInline let recorder: RecorderStorage<State, Event>?
  @usableFromInline let shared = Locked(Shared())

  @usableFromInline struct Shared: Sendable {
    @usableFromInline var sequence: UInt64 = 0
    @usableFromInline var consumers: [@Sendable (Inspection<State, Event>) -> Void] = []
    /// Activities numbered but not yet delivered, in order, each with the
    /// consumers it goes to (those added before it was numbered).
    @usableFromInline var undelivered: [Undelivered] = []
    /// Whether a thread is delivering `undelivered`: the others leave theirs to it.
    @usableFromInline var delivering = false
    @usableFromInline init() {}
  }

  @usableFromInline struct Undelivered: Sendable {
    @usableFromInline var inspection: Inspection<State, Event>
    @usableFromInline var consumers: [@Sendable (Inspection<State, Event>) -> Void]

    @inlinable init(
      _ inspection: Inspection<State, Event>, consumers: [@Sendable (Inspection<State, Event>) -> Void]
    ) {
      self.inspection = inspection
      self.consumers = consumers
    }
  }

  /// A stream for one system.
  ///
  /// - Parameters:
  ///   - system: the system's id in every message; a unique one by default.
  ///   - parent: the id of the system that owns it, if any.
  ///   - clock: the clock to stamp activities with; pass the system's
  ///     environment clock so that times are the system's own (a test clock
  ///     gives test times). `nil` records no time.
  ///   - filter: which activities reach the consumers (their numbers still count every activity).
  public init(
    system: String = InspectionStream.makeSystemID(), parent: String? = nil,
    clock: (any Clock<Duration>)? = nil,
    filter: @escaping @Sendable (Inspection<State, Event>) -> Bool = { _ in true }
  ) {
    self.system = system
    self.parent = parent
    self.elapsed = clock.map(ElapsedTime.init(clock:))
    self.filter = filter
    self.recorder = nil
  }

  /// A recorder's own stream.
  @usableFromInline init(
    system: String, parent: String?, clock: (any Clock<Duration>)?, recorder: RecorderStorage<State, Event>
  ) {
    self.system = system
    self.parent = parent
    self.elapsed = clock.map(ElapsedTime.init(clock:))
    self.filter = { _ in true }
    self.recorder = recorder
  }

  /// Adds a consumer; it sees every later activity that passes the filter.
  public func add(_ consumer: @escaping @Sendable (Inspection<State, Event>) -> Void) {
    add(catchingUp: {}, consumer)
  }

  /// Calls `catchUp`, then adds `consumer`, with no activity delivered in
  /// between: a consumer that first sends what a recorder holds misses
  /// nothing and repeats nothing. `catchUp` runs under the stream's lock:
  /// it may read a recorder fed by this stream, and must not send to the system.
  public func add(
    catchingUp catchUp: () -> Void, _ consumer: @escaping @Sendable (Inspection<State, Event>) -> Void
  ) {
    shared.withLock { shared in
      // Before the catch-up reads the recorder: an activity the recorder
      // takes after this goes through this lock, so it waits for the
      // consumer and reaches it; one it took before is in what the
      // catch-up reads.
      recorder?.streamGainedConsumers()
      catchUp()
      shared.consumers.append(consumer)
    }
  }

  /// The monitor to give the system.
  @inlinable public var monitor: SystemMonitor<State, Event> {
    if let recorder {
      // The recorder captured by the closures: no reference counting per
      // activity. A reduction comes through the shortcut, as its parts.
      return SystemMonitor(
        { [self, recorder] activity in report(activity, recording: recorder) },
        reduced: { [self, recorder] event, before, after, origin, source in
          reportReduction(
            event, from: before, to: after, isExternal: origin.isExternal, source: source, recording: recorder)
        })
    }
    return SystemMonitor { [self] activity in reportUnrecorded(activity) }
  }

  /// Numbers, stamps, filters and delivers one activity.
  ///
  /// Safe from any thread: unlike the ``monitor``'s reports, which come
  /// from the system's loop one at a time and reach the recorder without a
  /// lock, an activity handed here takes the recorder's lock.
  @inlinable public func report(_ activity: SystemActivity<State, Event>) {
    if let recorder {
      let time = elapsed?.read()
      if recorder.recordAloneFromOutside(activity, time: time) { return }
      reportShared(activity, time: time, recording: recorder)
    } else {
      reportUnrecorded(activity)
    }
  }

  /// A recorder's stream with no other consumer hands the activity to the
  /// recorder alone, which the loop writes without a lock (see
  /// ``RecorderStorage``), and builds no ``Inspection``: the loop's cost of
  /// recording (the in-memory recording benchmark).
  @inlinable func report(_ activity: SystemActivity<State, Event>, recording recorder: RecorderStorage<State, Event>) {
    let time = elapsed?.read()
    if recorder.recordAlone(activity, time: time) { return }
    reportShared(activity, time: time, recording: recorder)
  }

  /// ``report(_:recording:)`` for a reduction, given as its parts.
  @inlinable func reportReduction(
    _ event: Event, from before: State, to after: State, isExternal: Bool, source: () -> EventSource,
    recording recorder: RecorderStorage<State, Event>
  ) {
    let time = elapsed?.read()
    if isExternal {
      if recorder.recordAlone(reducing: event, to: after, time: time) { return }
    } else if recorder.recordAlone(reducing: event, to: after, source: source(), time: time) {
      return
    }
    reportShared(reducing: event, from: before, to: after, source: source(), time: time, recording: recorder)
  }

  /// ``reportShared(_:time:recording:)`` for a reduction, given as its parts.
  @inlinable @inline(never) func reportShared(
    reducing event: Event, from before: State, to after: State, source: EventSource, time: Duration?,
    recording recorder: RecorderStorage<State, Event>
  ) {
    reportShared(.reduced(event: event, from: before, to: after, source: source), time: time, recording: recorder)
  }

  /// An activity for the recorder and the stream's other consumers:
  /// recorded and numbered under the stream's lock, delivered out of it.
  @inlinable @inline(never) func reportShared(
    _ activity: SystemActivity<State, Event>, time: Duration?, recording recorder: RecorderStorage<State, Event>
  ) {
    let failure = RecorderStorage.failure(of: activity)
    let (undelivered, released) = shared.withLock { shared in
      let (sequence, released) = recorder.recordHandingOverReleased(activity, failure: failure, time: time)
      return (enqueue(activity, number: sequence, time: time, failure: failure, in: &shared), released)
    }
    // What the recorder's ring let go, released out of this lock too: its
    // `deinit` may send to the system, whose report comes back here.
    withExtendedLifetime(released) {}
    if let undelivered { deliver(undelivered) }
  }

  @inlinable func reportUnrecorded(_ activity: SystemActivity<State, Event>) {
    let time = elapsed?.read()
    let failure = RecorderStorage.failure(of: activity)
    let undelivered = shared.withLock { shared in
      let sequence = shared.sequence
      shared.sequence += 1
      return enqueue(activity, number: sequence, time: time, failure: failure, in: &shared)
    }
    if let undelivered { deliver(undelivered) }
  }

  /// Queues a numbered activity for the consumers there are now, or, when
  /// no thread is delivering, returns it for the caller to deliver (then
  /// the queue): the caller is the delivering thread until it is empty.
  @inlinable func enqueue(
    _ activity: SystemActivity<State, Event>, number: UInt64, time: Duration?, failure: String?,
    in shared: inout Shared
  ) -> Undelivered? {
    guard !shared.consumers.isEmpty else { return nil }
    let inspection = Inspection(
      system: system, parent: parent, sequence: number, time: time, activity: activity, errorDescription: failure)
    let undelivered = Undelivered(inspection, consumers: shared.consumers)
    if shared.delivering {
      shared.undelivered.append(undelivered)
      return nil
    }
    shared.delivering = true
    return undelivered
  }

  /// Delivers `first`, then the queue, in order, out of the lock, until it
  /// is empty: a consumer (or the filter) may send to the system or add a
  /// consumer, and what that reports is queued behind and delivered next,
  /// by this thread.
  @inlinable @inline(never) func deliver(_ first: Undelivered) {
    deliverOne(first)
    while true {
      let batch = shared.withLock { shared in
        if shared.undelivered.isEmpty { shared.delivering = false }
        defer { shared.undelivered.removeAll() }
        return shared.undelivered
      }
      if batch.isEmpty { return }
      for item in batch { deliverOne(item) }
    }
  }

  @inlinable func deliverOne(_ item: Undelivered) {
    guard filter(item.inspection) else { return }
    for consumer in item.consumers { consumer(item.inspection) }
  }
}
