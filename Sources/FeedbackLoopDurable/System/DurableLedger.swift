import FeedbackLoop
import Foundation
import Logging
import Synchronization

/// The durable side of one system: which events are reduced, queued,
/// committed; who waits for which; and the system's failure, if any.
///
/// The loop tells it each reduction through the system's monitor
/// (``didReduce(_:state:isExternal:)``), on the loop's thread; the writer's
/// task takes the queued events and gives back the journal's answer; callers
/// of `sendDurably` and `waitForCommit` wait here.
///
/// Which reduction is a caller's event: the core reduces the events sent
/// from outside in the order they were queued, and reports each with
/// `isExternal`. A caller counts its event before sending it
/// (`externalSent`), and reads the count again once `send` returned: its
/// event's position among external events is at most that count (every
/// event queued before it was counted before it was queued). So it waits
/// until that many external events are reduced, and then for the commit of
/// the latest sequence: never too early, at worst a few events late. This
/// needs no lock around the core's `send`, which may run the whole loop.
final class DurableLedger<State: Codable & Sendable, Event: Codable & Sendable>: JournalWriterClient {
  /// A caller waiting; its id lets its task's cancellation find it.
  struct Waiter {
    var id: UInt64
    var continuation: CheckedContinuation<UInt64, any Error>

    func resume(with result: Result<UInt64, DurableSystemError>) { continuation.resume(with: result) }
    func resume(returning sequence: UInt64) { continuation.resume(returning: sequence) }
    func resume(throwing error: any Error) { continuation.resume(throwing: error) }
  }

  private struct Queued {
    var sequence: UInt64
    var event: Event
    var snapshot: State?
    /// With a snapshot: the running effects' key origins (``EffectOrigin``).
    var effectOrigins: [EffectOrigin] = []
  }

  private struct Book {
    /// The sequence of the latest reduced event.
    var reduced: UInt64
    /// The sequence of the latest event the journal stored.
    var committed: UInt64
    var queued: [Queued] = []
    var isScheduled = false
    /// The number of external events reduced.
    var externalReduced: UInt64 = 0
    /// Callers waiting for a number of external events to be reduced.
    var externalWaiters: [(externalCount: UInt64, waiter: Waiter)] = []
    /// Callers waiting for the commit of a sequence.
    var commitWaiters: [(sequence: UInt64, waiter: Waiter)] = []
    var failure: DurableSystemError?
    var isStopped = false
    var lastWaiterID: UInt64 = 0
    /// Waiters whose task was cancelled before they were registered.
    var cancelledWaiters: Set<UInt64> = []
  }

  let systemID: String
  let writer: JournalWriter
  let gate: CommitGate
  private let codec: any DurableCodec
  private let schemaVersion: Int
  private let snapshots: SnapshotPolicy<State>
  private let logger: Logger
  /// The running effects' key origins, stored with each snapshot.
  private let effectOrigins: @Sendable () -> [EffectOrigin]
  private let book: Locked<Book>
  /// The number of external events sent (counted before each is sent).
  private let externalSent = Atomic<UInt64>(0)
  /// Set once the system is made: the ledger stops it when its durability
  /// fails. Weak: the system's monitor holds the ledger.
  private let stopSystem: Locked<(@Sendable () -> Void)?> = Locked(nil)

  init(
    systemID: String, writer: JournalWriter, gate: CommitGate, committed: UInt64,
    codec: any DurableCodec, schemaVersion: Int, snapshots: SnapshotPolicy<State>, logger: Logger,
    effectOrigins: @escaping @Sendable () -> [EffectOrigin] = { [] }
  ) {
    self.effectOrigins = effectOrigins
    self.systemID = systemID
    self.writer = writer
    self.gate = gate
    self.codec = codec
    self.schemaVersion = schemaVersion
    self.snapshots = snapshots
    self.logger = logger
    book = Locked(Book(reduced: committed, committed: committed))
  }

  func setStopSystem(_ stop: @escaping @Sendable () -> Void) {
    stopSystem.withLock { $0 = stop }
  }

  // MARK: - The loop's side

  /// Records a reduced event: called by the system's monitor, on the loop's
  /// thread, before the feedbacks see `state`.
  func didReduce(_ event: Event, state: State, isExternal: Bool) {
    var reached: [(Waiter, UInt64)] = []
    let (sequence, isQueued, schedules) = book.withLock { book -> (UInt64, Bool, Bool) in
      book.reduced += 1
      let sequence = book.reduced
      var schedules = false
      let isQueued = book.failure == nil
      if isQueued {
        let snapshot = snapshots.shouldSnapshot(state, sequence) ? state : nil
        book.queued.append(
          Queued(
            sequence: sequence, event: event, snapshot: snapshot,
            effectOrigins: snapshot == nil ? [] : effectOrigins()))
        schedules = !book.isScheduled
        book.isScheduled = true
      }
      if isExternal {
        book.externalReduced += 1
        let count = book.externalReduced
        if !book.externalWaiters.isEmpty {
          book.externalWaiters.removeAll { entry in
            guard entry.externalCount <= count else { return false }
            reached.append((entry.waiter, sequence))
            return true
          }
        }
      }
      for (waiter, sequence) in reached { book.commitWaiters.append((sequence, waiter)) }
      return (sequence, isQueued, schedules)
    }
    gate.reduced(through: sequence)
    if isQueued { writer.eventsQueued(1) }
    if schedules { writer.schedule(self) }
  }

  // MARK: - Callers

  /// The error that ends acknowledgements, or `nil` while the system is
  /// durable.
  var failure: DurableSystemError? { book.withLock { $0.failure } }

  var committedSequence: UInt64 { book.withLock { $0.committed } }

  /// Counts an external event about to be sent; throws, and counts
  /// nothing, when it cannot be acknowledged.
  func willSendExternal() throws(DurableSystemError) {
    if let failure = book.withLock({ $0.failure }) { throw failure }
    guard writer.hasRoom else { throw .writerQueueFull(systemID: systemID) }
    countExternal()
  }

  /// Counts an external event about to be sent, without asking.
  func countExternal() {
    externalSent.add(1, ordering: .sequentiallyConsistent)
  }

  /// Waits until the external event just sent by the caller is committed;
  /// returns the sequence committed then.
  func waitForSentEvent() async throws -> UInt64 {
    let count = externalSent.load(ordering: .sequentiallyConsistent)
    return try await wait { book, waiter in
      if book.externalReduced >= count {
        if book.committed >= book.reduced { return .success(book.committed) }
        book.commitWaiters.append((book.reduced, waiter))
        return nil
      }
      if book.isStopped { return .failure(.stopped(systemID: systemID)) }
      book.externalWaiters.append((count, waiter))
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
      return book.lastWaiterID
    }
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let waiter = Waiter(id: id, continuation: continuation)
        let outcome = book.withLock { book -> Result<UInt64, any Error>? in
          if book.cancelledWaiters.remove(id) != nil { return .failure(CancellationError()) }
          if let failure = book.failure { return .failure(failure) }
          return register(&book, waiter).map { $0.mapError { $0 as any Error } }
        }
        if let outcome { continuation.resume(with: outcome) }
      }
    } onCancel: {
      let waiter = book.withLock { book -> Waiter? in
        if let index = book.externalWaiters.firstIndex(where: { $0.waiter.id == id }) {
          return book.externalWaiters.remove(at: index).waiter
        }
        if let index = book.commitWaiters.firstIndex(where: { $0.waiter.id == id }) {
          return book.commitWaiters.remove(at: index).waiter
        }
        book.cancelledWaiters.insert(id)
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
      defer { book.externalWaiters = [] }
      return book.externalWaiters.map(\.waiter)
    }
    for waiter in unreduced { waiter.resume(throwing: DurableSystemError.stopped(systemID: systemID)) }
    gate.openForGood()
  }

  // MARK: - The writer's side

  func takeBatches() -> (batches: [JournalBatch], eventCount: Int) {
    let (queued, committed) = book.withLock { book -> ([Queued], UInt64) in
      book.isScheduled = false
      guard book.failure == nil else { return ([], book.committed) }
      defer { book.queued = [] }
      return (book.queued, book.committed)
    }
    guard !queued.isEmpty else { return ([], 0) }
    do throws(DurableSystemError) {
      // A batch's snapshot is the state after its last event: the events up
      // to the latest snapshot go in one batch, the rest in a second one
      // (the journal appends two batches of one system in order).
      let lastSnapshot = queued.lastIndex { $0.snapshot != nil }
      var batches: [JournalBatch] = []
      var start = 0
      var expected = committed
      for end in [lastSnapshot.map { $0 + 1 }, queued.count].compactMap(\.self) where end > start {
        let part = queued[start..<end]
        var events: [Data] = []
        events.reserveCapacity(part.count)
        for item in part {
          do {
            events.append(try codec.encode(DurableEnvelope(version: schemaVersion, value: item.event)))
          } catch {
            throw .encodingFailed(systemID: systemID, sequence: item.sequence, underlying: error)
          }
        }
        var snapshot: Data?
        if let last = part.last, let state = last.snapshot {
          do {
            snapshot = try codec.encode(
              SnapshotEnvelope(version: schemaVersion, value: state, effectOrigins: last.effectOrigins))
          } catch {
            throw .encodingFailed(systemID: systemID, sequence: last.sequence, underlying: error)
          }
        }
        batches.append(
          JournalBatch(systemID: systemID, expectedSequence: expected, events: events, snapshot: snapshot))
        expected += UInt64(events.count)
        start = end
      }
      return (batches, queued.count)
    } catch {
      fail(error)
      return ([], queued.count)
    }
  }

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
    let failed = book.withLock { book -> (waiters: [Waiter], dropped: Int)? in
      guard book.failure == nil else { return nil }
      book.failure = error
      let dropped = book.queued.count
      defer {
        book.queued = []
        book.externalWaiters = []
        book.commitWaiters = []
      }
      return (book.externalWaiters.map(\.waiter) + book.commitWaiters.map(\.waiter), dropped)
    }
    guard let (waiters, dropped) = failed else { return }
    writer.eventsQueued(-dropped)
    logger.error("\(error)")
    stopSystem.withLock { $0 }?()
    gate.openForGood()
    for waiter in waiters { waiter.resume(throwing: error) }
  }
}
