import FeedbackLoopDurable
import FeedbackLoopDurableTesting
import Testing

@Suite("InMemoryJournal conformance")
struct InMemoryJournalConformanceTests {
  @Test("the in-memory journal keeps every rule of the journal contract", arguments: JournalConformance.checks)
  func conformance(_ check: JournalCheck) async throws {
    try await check.run { InMemoryJournal() }
  }
}
