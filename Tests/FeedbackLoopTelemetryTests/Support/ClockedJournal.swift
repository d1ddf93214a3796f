import FeedbackLoopDurable
import FeedbackLoopTesting

/// A journal whose every append takes `appendTakes` on a test clock: it
/// moves the clock itself, as a disk's write would take time, so that a
/// test reads an exact latency without waiting for anything.
struct ClockedJournal<Base: Journal>: Journal {
  let base: Base
  let clock: TestClock
  let appendTakes: Duration

  func append(_ batches: [JournalBatch]) async throws -> [JournalAppendResult] {
    clock.advance(by: appendTakes)
    return try await base.append(batches)
  }

  func claim(_ systemID: String) async throws -> JournalClaim { try await base.claim(systemID) }
  func load(_ systemID: String) async throws -> JournalHistory? { try await base.load(systemID) }
  func systemIDs(after id: String?, limit: Int) async throws -> [String] {
    try await base.systemIDs(after: id, limit: limit)
  }
  func delete(_ systemID: String) async throws { try await base.delete(systemID) }
}
