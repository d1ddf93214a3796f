import FeedbackLoopDurable
import Synchronization

/// A ``Journal`` that forwards to another and counts the transactions the
/// writer made: how many appends, and how many events each carried (the
/// batch size the raw baselines then use).
final class CountingJournal: Journal {
  let base: any Journal
  private let eventsPerAppend = Mutex<[Int]>([])
  private let systemBatches = Atomic<Int>(0)

  init(_ base: some Journal) { self.base = base }

  func append(_ batches: [JournalBatch]) async throws -> [JournalAppendResult] {
    let events = batches.reduce(0) { $0 + $1.events.count }
    eventsPerAppend.withLock { $0.append(events) }
    systemBatches.add(batches.count, ordering: .relaxed)
    return try await base.append(batches)
  }

  func claim(_ systemID: String) async throws -> JournalClaim { try await base.claim(systemID) }

  func load(_ systemID: String) async throws -> JournalHistory? { try await base.load(systemID) }

  func systemIDs(after id: String?, limit: Int) async throws -> [String] {
    try await base.systemIDs(after: id, limit: limit)
  }

  func delete(_ systemID: String) async throws { try await base.delete(systemID) }

  func reset() {
    eventsPerAppend.withLock { $0 = [] }
    systemBatches.store(0, ordering: .relaxed)
  }

  /// The events of each append since the last reset, in order.
  var appends: [Int] { eventsPerAppend.withLock { $0 } }
  /// The number of system batches appended since the last reset.
  var batchCount: Int { systemBatches.load(ordering: .relaxed) }
}
