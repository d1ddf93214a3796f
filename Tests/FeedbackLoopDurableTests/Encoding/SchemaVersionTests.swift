import FeedbackLoop
import FeedbackLoopDurable
import FeedbackLoopTesting
import Foundation
import Testing

@Suite("Stored records and their schema version", .runsLeftoverJobs, .timeLimit(.minutes(1)))
struct SchemaVersionTests {
  @Test("each stored event is an envelope with the schema version and the value, in JSON by default")
  func envelope() async throws {
    let harness = DurableHarness()
    let account = try await harness.restore(schemaVersion: 3)
    try await account.sendDurably(.deposit(4))
    account.stop()
    let stored = try #require(try await harness.journal.base.load("account")?.events.first)
    #expect(String(decoding: stored.payload, as: UTF8.self) == #"{"value":{"deposit":{"_0":4}},"version":3}"#)
  }

  @Test("a record of an older schema version with no migration stops the restore, naming the system and sequence")
  func otherVersionStopsTheRestore() async throws {
    let harness = DurableHarness()
    let account = try await harness.restore(schemaVersion: 1)
    try await account.sendDurably(.deposit(4))
    account.stop()
    let error = await #expect(throws: DurableSystemError.self) { try await harness.restore(schemaVersion: 2) }
    guard case .migrationMissing("account", 1, .event, from: 1, found: 1, supported: 2) = error else {
      Issue.record("expected migrationMissing, got \(String(describing: error))")
      return
    }
    #expect("\(error!)".contains("Event 1 of system \"account\""))
  }

  @Test("a record that does not decode stops the restore with an error naming the system and the sequence")
  func undecodableRecord() async throws {
    let harness = DurableHarness()
    _ = try await harness.journal.append([
      JournalBatch(systemID: "account", expectedSequence: 0, events: [Data(#"{"version":1,"value":"?"}"#.utf8)])
    ])
    let error = await #expect(throws: DurableSystemError.self) { try await harness.restore() }
    guard case .decodingFailed("account", 1, _) = error else {
      Issue.record("expected decodingFailed, got \(String(describing: error))")
      return
    }
  }
}
