import FeedbackLoop
import Foundation
import Logging
import Synchronization

/// The durable side of one system: which events are reduced, queued,
/// committed; who waits for which; and the system's failure, if any.
///
/// The loop tells it each reduction through the system's monitor
/// (``didReduce(_:state:isCountedSend:)``), on the loop's thread; the writer's
/// task takes the queued events and gives back the journal's answer; callers
/// of `sendDurably` and `waitForCommit` wait here.
///
/// Which reduction is a caller's event: the durable system sends its
/// callers' events (`send` and `sendDurably`) through the core's
/// `System.sendCounted`, and the core reports each of their reductions
/// with `isCountedSend`, apart from every other external event (an
/// `Input`'s, a send to the inner `System`), in the order they were queued.
/// A caller counts its event before sending it (`countedSent`), and reads
/// the count again once `send` returned: its event's position among the
/// counted sends is at most that count (every one queued before it was
/// counted before it was queued). So it waits until that many counted sends
/// are reduced, and then for the commit of the latest sequence: never too
/// early, at worst a few events late. This needs no lock around the core's
/// `send`, which may run the whole loop. Counting every external event
/// instead acknowledged a caller queued behind an `Input`'s events before
/// its own was reduced.
///
/// The loop's side (``didReduce(_:state:isCountedSend:)``) is `@inlinable`, and
/// so is what it touches: the durable system builds its monitor in the
/// caller's module (`DurableSystem.restore` is `@inlinable`), so that the
/// per-event path is specialized for the app's `State` and `Event`.
/// Unspecialized, each event cost about 1 µs, mostly the runtime's lookups
/// of the metadata of this class's generic entries, tuples and arrays.
@usableFromInline
final class DurableLedger<State: Codable & Sendable, Event: Codable & Sendable>: JournalWriterClient {
  /// A caller waiting; its id lets its task's cancellation find it.
  @usableFromInline
  struct Waiter: Sendable {
    @usableFromInline var id: UInt64
    @usableFromInline var continuation: CheckedContinuation<UInt64, any Error>

    init(id: UInt64, continuation: CheckedContinuation<UInt64, any Error>) {
      self.id = id
      self.continuation = continuation
    }

    func resume(with result: Result<UInt64, DurableSystemError>) { continuation.resume(with: result) }
    func resume(returning sequence: UInt64) { continuation.resume(returning: sequence) }
    func resume(throwing error: any Error) { continuation.resume(throwing: error) }
  }

  /// A state to store as a snapshot with the event of `sequence`, and the
  /// running effects' key origins (``EffectOrigin``) then.
  @usableFromInline
  struct QueuedSnapshot: Sendable {
    @usableFromInline var sequence: UInt64
    @usableFromInline var state: State
    @usableFromInline var effectOrigins: [EffectOrigin]

    @inlinable
    init(sequence: UInt64, state: State, effectOrigins: [EffectOrigin]) {
      self.sequence = sequence
      self.state = state
      self.effectOrigins = effectOrigins
    }
  }

  @usableFromInline
  struct Book: Sendable {
    /// The sequence of the latest reduced event.
    @usableFromInline var reduced: UInt64
    /// The sequence of the latest event the journal stored.
    @usableFromInline var committed: UInt64
    /// The events reduced and not yet taken by the writer: the latest
    /// ones, so the last is `reduced`'s. Events alone, without their
    /// sequence or room for a snapshot: the queue grows by what the writer
    /// has not taken yet (a million events when the loop outruns the
    /// encoding), and entries of 40 bytes made it page faults and copies on
    /// the loop's side.
    @usableFromInline var queued: [Event] = []
    /// The latest snapshot taken among the queued events, at most one: a
    /// take ends at it, and an earlier one would never be stored.
    @usableFromInline var queuedSnapshot: [QueuedSnapshot] = []
    @usableFromInline var isScheduled = false
    /// The number of counted sends reduced.
    @usableFromInline var countedReduced: UInt64 = 0
    /// Callers waiting for a number of counted sends to be reduced.
    @usableFromInline var countedWaiters: [(countedSends: UInt64, waiter: Waiter)] = []
    /// Callers waiting for the commit of a sequence.
    @usableFromInline var commitWaiters: [(sequence: UInt64, waiter: Waiter)] = []
    @usableFromInline var failure: DurableSystemError?
    var isStopped = false
    /// The system, set once it is made, until it stops: the ledger stops it
    /// when its durability fails. Held here rather than by a closure of
    /// weak references (an allocation, a lock and two side tables per
    /// system): the cycle through the system's monitor ends when the system
    /// stops, and the durable system stops it when it is released.
    var system: System<State, Event>?
    var lastWaiterID: UInt64 = 0
    /// The waiters given an id and not yet registered, and whether their
    /// task was cancelled meanwhile. A cancellation after the registration
    /// finds its waiter in a list, or nothing once it was answered: it must
    /// not keep the id then, or each caller cancelled between its answer and
    /// its return would leave one behind for good.
    var unregisteredWaiters: [UInt64: Bool] = [:]

    init(reduced: UInt64, committed: UInt64) {
      self.reduced = reduced
      self.committed = committed
    }
  }

  /// The user's monitor, behind one pointer (see `userMonitorBox`).
  @usableFromInline
  final class UserMonitorBox: Sendable {
    @usableFromInline let monitor: SystemMonitor<State, Event>
    init(_ monitor: SystemMonitor<State, Event>) { self.monitor = monitor }
  }

  let systemID: String
  /// The epoch of the system's claim, which each of its batches carries: a
  /// later claim of the id fences this ledger's appends (G17).
  let epoch: UInt64
  @usableFromInline let writer: JournalWriter
  @usableFromInline let gate: CommitGate
  private let codec: any DurableCodec
  private let schemaVersion: Int
  @usableFromInline let snapshots: SnapshotPolicy<State>
  private let logger: Logger
  /// The system's effects' keys: their origins are stored with each
  /// snapshot, and the system's monitor reports the effects to them.
  @usableFromInline let keys: EffectKeyBook<State, Event>?
  /// The monitor the user gave the system. Kept here, with the keys, so
  /// that the system's monitor captures the ledger alone: a closure that
  /// captures one object needs no context of its own (an idle system's
  /// memory). Boxed, so that a system without one does not carry its
  /// closures' room inline.
  @usableFromInline let userMonitorBox: UserMonitorBox?
  @inlinable var userMonitor: SystemMonitor<State, Event>? { userMonitorBox?.monitor }
  /// Inline rather than a `Locked` object: one allocation fewer per system.
  @usableFromInline let book: InlineLocked<Book>
  /// The number of counted sends (`System.sendCounted`), counted before
  /// each is sent.
  private let countedSent = Atomic<UInt64>(0)

  init(
    systemID: String, epoch: UInt64, writer: JournalWriter, gate: CommitGate, committed: UInt64,
    codec: any DurableCodec, schemaVersion: Int, snapshots: SnapshotPolicy<State>, logger: Logger,
    keys: EffectKeyBook<State, Event>? = nil, monitor: SystemMonitor<State, Event>? = nil
  ) {
    self.keys = keys
    self.userMonitorBox = monitor.map(UserMonitorBox.init)
    self.systemID = systemID
    self.epoch = epoch
    self.writer = writer
    self.gate = gate
    self.codec = codec
    self.schemaVersion = schemaVersion
    self.snapshots = snapshots
    self.logger = logger
    book = InlineLocked(Book(reduced: committed, committed: committed))
  }

  /// Gives the ledger the system to stop when its durability fails.
  @usableFromInline
  func setSystem(_ system: System<State, Event>) {
    book.withLock { $0.system = system }
  }

  // MARK: - The loop's side

  /// Records a reduced event: called by the system's monitor, on the loop's
  /// thread, before the feedbacks see `state`; `isCountedSend` when the
  /// durable system sent it (`System.sendCounted`). One lock, no allocation
  /// beyond the queue's growth.
  @inlinable
  func didReduce(_ event: Event, state: State, isCountedSend: Bool) {
    let (sequence, isQueued, schedules) = book.withLock { book -> (UInt64, Bool, Bool) in
      book.reduced += 1
      let sequence = book.reduced
      var schedules = false
      let isQueued = book.failure == nil
      if isQueued {
        book.queued.append(event)
        if snapshots.shouldSnapshot(state, sequence) {
          let snapshot = QueuedSnapshot(
            sequence: sequence, state: state, effectOrigins: keys?.originsForSnapshot() ?? [])
          if book.queuedSnapshot.isEmpty {
            book.queuedSnapshot.append(snapshot)
          } else {
            book.queuedSnapshot[0] = snapshot
          }
        }
        schedules = !book.isScheduled
        book.isScheduled = true
      }
      if isCountedSend {
        book.countedReduced += 1
        if !book.countedWaiters.isEmpty { Self.moveReachedWaiters(&book, reducedThrough: sequence) }
      }
      return (sequence, isQueued, schedules)
    }
    gate.reduced(through: sequence)
    if isQueued { writer.eventsQueued(1) }
    if schedules { writer.schedule(self) }
  }

  /// The callers whose counted send is now reduced wait for the commit
  /// of `sequence`. Out of line: the waiters' lists and tuples are not set
  /// up on the per-event path.
  @inlinable @inline(never)
  static func moveReachedWaiters(_ book: inout Book, reducedThrough sequence: UInt64) {
    let count = book.countedReduced
    var reached: [Waiter] = []
    book.countedWaiters.removeAll { entry in
      guard entry.countedSends <= count else { return false }
      reached.append(entry.waiter)
      return true
    }
    for waiter in reached { book.commitWaiters.append((sequence, waiter)) }
  }

  // MARK: - Callers

  /// The error that ends acknowledgements, or `nil` while the system is
  /// durable.
  var failure: DurableSystemError? { book.withLock { $0.failure } }

  var committedSequence: UInt64 { book.withLock { $0.committed } }

  /// The waiters' ids the ledger keeps besides the waiting lists: for the
  /// tests, which check that a caller leaves none behind.
  var keptWaiterIDCount: Int { book.withLock { $0.unregisteredWaiters.count } }

  /// Counts an event about to be sent with `System.sendCounted`; throws,
  /// and counts nothing, when it cannot be acknowledged.
  func willSendCounted() throws(DurableSystemError) {
    if let failure = book.withLock({ $0.failure }) { throw failure }
    guard writer.hasRoom else { throw .writerQueueFull(systemID: systemID) }
    countSend()
  }

  /// Counts an event about to be sent with `System.sendCounted`, without
  /// asking.
  func countSend() {
    countedSent.add(1, ordering: .sequentiallyConsistent)
  }

  /// Waits until the event the caller just sent with `System.sendCounted`
  /// is committed; returns the sequence committed then.
  func waitForSentEvent() async throws -> UInt64 {
    let count = countedSent.load(ordering: .sequentiallyConsistent)
    return try await wait { book, waiter in
      if book.countedReduced >= count {
        if book.committed >= book.reduced { return .success(book.committed) }
        book.commitWaiters.append((book.reduced, waiter))
        return nil
      }
      if book.isStopped { return .failure(.stopped(systemID: systemID)) }
      book.countedWaiters.append((count, waiter))
      return nil
    }
  }

  /// Waits until every event reduced so far is committed.
  func waitForCommit() async throws -> UInt64 {
    try await wait { book, waiter in
      if book.committed >= book.reduced { return .success(book.committed) }
      book.commitWaiters.append((book.reduced, waiter))
      return nil
    }
  }

  /// Registers a waiter with `register`, which answers at once or keeps
  /// it; a cancelled task stops waiting with `CancellationError` (its
  /// event is still sent, and may still be stored).
  private func wait(
    _ register: (inout Book, Waiter) -> Result<UInt64, DurableSystemError>?
  ) async throws -> UInt64 {
    let id = book.withLock { book in
      book.lastWaiterID += 1
      book.unregisteredWaiters[book.lastWaiterID] = false
      return book.lastWaiterID
    }
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let waiter = Waiter(id: id, continuation: continuation)
        let outcome = book.withLock { book -> Result<UInt64, any Error>? in
          if book.unregisteredWaiters.removeValue(forKey: id) == true { return .failure(CancellationError()) }
          if let failure = book.failure { return .failure(failure) }
          return register(&book, waiter).map { $0.mapError { $0 as any Error } }
        }
        if let outcome { continuation.resume(with: outcome) }
      }
    } onCancel: {
      let waiter = book.withLock { book -> Waiter? in
        if let index = book.countedWaiters.firstIndex(where: { $0.waiter.id == id }) {
          return book.countedWaiters.remove(at: index).waiter
        }
        if let index = book.commitWaiters.firstIndex(where: { $0.waiter.id == id }) {
          return book.commitWaiters.remove(at: index).waiter
        }
        if book.unregisteredWaiters[id] != nil { book.unregisteredWaiters[id] = true }
        return nil
      }
      waiter?.resume(throwing: CancellationError())
    }
  }

  /// The system stopped: callers whose event was not reduced hear it; the
  /// events reduced before are still written.
  func systemStopped() {
    let unreduced = book.withLock { book -> [Waiter] in
      book.isStopped = true
      book.system = nil
      defer { book.countedWaiters = [] }
      return book.countedWaiters.map(\.waiter)
    }
    for waiter in unreduced { waiter.resume(throwing: DurableSystemError.stopped(systemID: systemID)) }
    gate.openForGood()
  }

  // MARK: - The writer's side

  /// What the writer takes from the book: `events[..<end]`, the first of
  /// which has sequence `first`.
  private struct Taken {
    var events: [Event]
    var end: Int
    var first: UInt64
    var snapshot: QueuedSnapshot?
    var committed: UInt64
  }

  @usableFromInline
  func takeBatches() -> (batches: [JournalBatch], eventCount: Int) {
    let taken = book.withLock { book -> Taken? in
      book.isScheduled = false
      guard book.failure == nil, !book.queued.isEmpty else { return nil }
      let first = book.reduced - UInt64(book.queued.count) + 1
      // The events after the latest snapshot wait for the next append: in
      // this one, a second batch would expect the sequence after the first
      // one's, and when the first is refused (another owner wrote), the
      // journal would check the second against the other owner's sequence,
      // and append it if they happen to match: a merge (G17).
      let snapshot = book.queuedSnapshot.first
      let end = snapshot.map { Int($0.sequence - first) + 1 } ?? book.queued.count
      book.queuedSnapshot = []
      // The whole queue is handed over without a copy, while the loop may
      // wait for the lock; only the events after the snapshot (fewer than
      // `every(n)`'s n) are copied back.
      var events: [Event] = []
      swap(&events, &book.queued)
      if end < events.count {
        book.queued = Array(events[end...])
        book.isScheduled = true
      }
      return Taken(events: events, end: end, first: first, snapshot: snapshot, committed: book.committed)
    }
    guard let taken else { return ([], 0) }
    if taken.end < taken.events.count { writer.schedule(self) }
    let queued = taken.events[..<taken.end]
    do throws(DurableSystemError) {
      // A batch's snapshot is the state after its last event: the events
      // taken end at the latest snapshot (see above), so they make one batch.
      let (codec, schemaVersion) = (codec, schemaVersion)
      let events: [Data]
      switch BatchEncoding.encode(queued, { try codec.encode(DurableEnvelope(version: schemaVersion, value: $0)) }) {
      case .success(let encoded):
        events = encoded
      case .failure(let failure):
        throw .encodingFailed(
          systemID: systemID, sequence: taken.first + UInt64(failure.offset), underlying: failure.error)
      }
      var snapshot: Data?
      if let queuedSnapshot = taken.snapshot {
        do {
          snapshot = try codec.encode(
            SnapshotEnvelope(
              version: schemaVersion, value: queuedSnapshot.state, effectOrigins: queuedSnapshot.effectOrigins))
        } catch {
          throw .encodingFailed(systemID: systemID, sequence: queuedSnapshot.sequence, underlying: error)
        }
      }
      let batches = [
        JournalBatch(
          systemID: systemID, epoch: epoch, expectedSequence: taken.committed, events: events, snapshot: snapshot)
      ]
      return (batches, queued.count)
    } catch {
      fail(error)
      return ([], queued.count)
    }
  }

  @usableFromInline
  func appended(_ results: ArraySlice<JournalAppendResult>) {
    for result in results {
      switch result {
      case .appended(let through):
        commit(through: through)
      case .refused(let conflict):
        fail(.refusedByJournal(conflict))
        return
      }
    }
  }

  @usableFromInline
  func failed(_ error: any Error) {
    fail(.journalFailed(systemID: systemID, underlying: error))
  }

  private func commit(through sequence: UInt64) {
    let done = book.withLock { book -> [(Waiter, UInt64)] in
      book.committed = max(book.committed, sequence)
      var done: [(Waiter, UInt64)] = []
      book.commitWaiters.removeAll { entry in
        guard entry.sequence <= sequence else { return false }
        done.append((entry.waiter, sequence))
        return true
      }
      return done
    }
    // The effects first: a caller that awaited the commit finds them
    // started, or at least queued on their executor.
    gate.committed(through: sequence)
    for (waiter, sequence) in done { waiter.resume(returning: sequence) }
  }

  /// Ends the system's durability: every caller hears `error`, the system
  /// stops, and its held effects end without running.
  private func fail(_ error: DurableSystemError) {
    let failed = book.withLock { book -> (waiters: [Waiter], dropped: Int, system: System<State, Event>?)? in
      guard book.failure == nil else { return nil }
      book.failure = error
      let dropped = book.queued.count
      defer {
        book.queued = []
        book.queuedSnapshot = []
        book.countedWaiters = []
        book.commitWaiters = []
        book.system = nil
      }
      return (book.countedWaiters.map(\.waiter) + book.commitWaiters.map(\.waiter), dropped, book.system)
    }
    guard let (waiters, dropped, system) = failed else { return }
    writer.eventsQueued(-dropped)
    logger.error("\(error)")
    if let system {
      system.stop(isolation: nil)
      systemStopped()
    }
    gate.openForGood()
    for waiter in waiters { waiter.resume(throwing: error) }
  }
}
