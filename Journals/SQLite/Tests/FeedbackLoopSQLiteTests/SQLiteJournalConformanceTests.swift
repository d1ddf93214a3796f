import FeedbackLoopDurable
import FeedbackLoopDurableTesting
import FeedbackLoopSQLite
import Foundation
import Testing

@Suite("SQLiteJournal conformance")
struct SQLiteJournalConformanceTests {
  @Test("the SQLite journal keeps every rule of the journal contract", arguments: JournalConformance.checks)
  func conformance(_ check: JournalCheck) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let folder = directory.url
    try await check.run {
      try SQLiteJournal(path: folder.appendingPathComponent("journal-\(UUID().uuidString).sqlite").path)
    }
  }

  @Test("the SQLite journal with synchronous FULL keeps every rule too", arguments: JournalConformance.checks)
  func conformanceWithFullSynchronization(_ check: JournalCheck) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let folder = directory.url
    try await check.run {
      try SQLiteJournal(
        path: folder.appendingPathComponent("journal-\(UUID().uuidString).sqlite").path, synchronization: .full)
    }
  }
}
