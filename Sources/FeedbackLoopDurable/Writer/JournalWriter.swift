import FeedbackLoop
import Synchronization

/// The one writer of a ``Journal``: it batches the events of every durable
/// system that uses it into one ``Journal/append(_:)`` (group commit), while
/// the systems go on reducing.
///
/// A durable system never waits for the disk: its events are reduced at
/// once, and queued here. One task appends the queue's contents, and while
/// that append runs, the next events of every system gather for the next
/// one, so that a busy writer makes fewer, larger transactions. The task
/// starts when the first event arrives and ends when the queue is empty.
///
/// The queue is bounded by its ``QueuePolicy`` (G14).
///
/// ```swift
/// let writer = JournalWriter(journal: journal, queue: .refuseNewEvents(limit: 10_000))
/// let cart = try await DurableSystem.restore(
///   id: "cart-42", writer: writer, initial: Cart(), reduce: Cart.reduce)
/// let wishlist = try await DurableSystem.restore(
///   id: "wishlist-42", writer: writer, initial: Wishlist(), reduce: Wishlist.reduce)
/// // Events of both systems are appended together.
/// ```
public final class JournalWriter: Sendable {
  /// What the writer does when its queue of events not yet appended is
  /// full.
  ///
  /// The queue holds events already reduced, which no policy may drop
  /// (the journal would then lose an event the state has): a full queue
  /// refuses new events at the door instead, before they are reduced.
  ///
  /// This enum will grow: end a `switch` over it with `default:`.
  ///
  /// ```swift
  /// JournalWriter(journal: journal, queue: .refuseNewEvents(limit: 10_000))
  /// ```
  public enum QueuePolicy: Sendable, Hashable {
    /// No bound: the queue grows as long as the journal is slower than the
    /// systems.
    case unbounded
    /// A send from outside a system is refused, before it is reduced, while
    /// `limit` events or more wait to be appended: `send` reports it to the
    /// monitor as `DiscardReason.bufferFull`, and
    /// ``DurableSystem/sendDurably(_:isolation:)`` throws
    /// ``DurableSystemError/writerQueueFull(systemID:)``. Events that
    /// feedbacks send in answer to reduced ones are not refused, so the
    /// queue may pass `limit` by those.
    case refuseNewEvents(limit: Int)
  }

  private struct Queue {
    var ready: [any JournalWriterClient] = []
    var isRunning = false
  }

  /// The journal this writer appends to.
  public let journal: any Journal
  /// The bound of the writer's queue.
  public let queuePolicy: QueuePolicy
  private let queue = Locked(Queue())
  @usableFromInline let queuedEvents = Atomic<Int>(0)

  /// A writer for `journal`. Give every durable system that uses the
  /// journal the same writer, so that their events are appended together.
  public init(journal: some Journal, queue: QueuePolicy = .refuseNewEvents(limit: 100_000)) {
    if case .refuseNewEvents(let limit) = queue, limit < 1 {
      fatalError("JournalWriter.QueuePolicy.refuseNewEvents(limit:) needs a limit of at least 1, not \(limit).")
    }
    self.journal = journal
    self.queuePolicy = queue
  }

  /// The number of events reduced and not yet handed to the journal.
  public var queuedEventCount: Int { queuedEvents.load(ordering: .relaxed) }

  /// Whether the queue takes a new event from outside.
  var hasRoom: Bool {
    switch queuePolicy {
    case .unbounded: true
    case .refuseNewEvents(let limit): queuedEvents.load(ordering: .relaxed) < limit
    }
  }

  /// Counts events reduced by one of the writer's systems (or, negative,
  /// dropped by a system that failed).
  @inlinable
  func eventsQueued(_ count: Int) {
    // Wrapping: one `lock xadd`, where the checked `add` is a
    // compare-and-swap loop (a count of queued events cannot overflow).
    queuedEvents.wrappingAdd(count, ordering: .relaxed)
  }

  /// Puts a system with events to append in the queue, and starts the
  /// writing task unless it runs.
  @usableFromInline
  func schedule(_ client: any JournalWriterClient) {
    let starts = queue.withLock { queue in
      queue.ready.append(client)
      defer { queue.isRunning = true }
      return !queue.isRunning
    }
    if starts {
      // On the global executor, whatever the scheduling code's preference:
      // an effect's event, reduced on the effect's thread, schedules the
      // writer, and a writer on the durable system's own effect executor
      // would wait for the commit it is there to make.
      Task(executorPreference: globalConcurrentExecutor) { await self.writeUntilIdle() }
    }
  }

  private func writeUntilIdle() async {
    while let clients = takeReady() {
      var batches: [JournalBatch] = []
      var spans: [(client: any JournalWriterClient, range: Range<Int>)] = []
      // Many events waiting: the systems take (and encode) their batches on
      // several threads (BatchEncoding.swift), each system's on one.
      let spread = clients.count > 1 && queuedEvents.load(ordering: .relaxed) >= 2 * BatchEncoding.minimumPerThread
      let takes = BatchEncoding.map(clients, runs: spread ? BatchEncoding.maximumThreads : 1) { $0.takeBatches() }
      for (client, taken) in zip(clients, takes) {
        queuedEvents.wrappingSubtract(taken.eventCount, ordering: .relaxed)
        guard !taken.batches.isEmpty else { continue }
        spans.append((client, batches.count..<batches.count + taken.batches.count))
        batches.append(contentsOf: taken.batches)
      }
      guard !batches.isEmpty else { continue }
      do {
        let results = try await journal.append(batches)
        guard results.count == batches.count else {
          fatalError(
            "\(type(of: journal)).append(_:) returned \(results.count) results for \(batches.count) batches: "
              + "a journal returns one result per batch.")
        }
        for span in spans { span.client.appended(results[span.range]) }
      } catch {
        for span in spans { span.client.failed(error) }
      }
    }
  }

  private func takeReady() -> [any JournalWriterClient]? {
    queue.withLock { queue in
      guard !queue.ready.isEmpty else {
        queue.isRunning = false
        return nil
      }
      defer { queue.ready = [] }
      return queue.ready
    }
  }
}

/// What a durable system hands its writer.
@usableFromInline
protocol JournalWriterClient: AnyObject, Sendable {
  /// Takes the system's queued events, encoded, as the batches to append
  /// (none when it has nothing to write, or failed).
  func takeBatches() -> (batches: [JournalBatch], eventCount: Int)
  /// The results of the batches taken, in order.
  func appended(_ results: ArraySlice<JournalAppendResult>)
  /// The append of the batches taken threw: nothing of them is stored.
  func failed(_ error: any Error)
}
