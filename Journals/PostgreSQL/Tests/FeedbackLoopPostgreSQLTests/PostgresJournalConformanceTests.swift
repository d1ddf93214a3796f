import FeedbackLoopDurable
import FeedbackLoopDurableTesting
import FeedbackLoopPostgreSQL
import Testing

@Suite("PostgreSQL journal conformance")
struct PostgresJournalConformanceTests {
  @Test("the PostgreSQL journal keeps every rule of the journal contract", arguments: JournalConformance.checks)
  func conformance(_ check: JournalCheck) async throws {
    try await TestServer.shared.withClient { client in
      try await check.run {
        try await PostgresJournal.open(client: client, tablePrefix: TestServer.newTablePrefix())
      }
    }
  }
}
