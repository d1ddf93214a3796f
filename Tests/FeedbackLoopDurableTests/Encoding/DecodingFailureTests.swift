import FeedbackLoop
import FeedbackLoopDurable
import FeedbackLoopTesting
import Foundation
import Testing

@Suite("A record that no longer decodes stops the restore", .runsLeftoverJobs, .timeLimit(.minutes(1)))
struct DecodingFailureTests {
  /// Stores `events` (and `snapshot` after them) as raw JSON, restores,
  /// expects a decoding failure, and that the journal is as it was.
  private func failure(
    events: [String], snapshot: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
  ) async throws -> (error: DurableSystemError, sequence: UInt64, failure: DurableDecodingFailure) {
    let harness = DurableHarness()
    _ = try await harness.journal.base.append([
      JournalBatch(
        systemID: "account", expectedSequence: 0, events: events.map { Data($0.utf8) },
        snapshot: snapshot.map { Data($0.utf8) })
    ])
    let before = try await harness.journal.base.load("account")
    let error = await #expect(throws: DurableSystemError.self, sourceLocation: sourceLocation) {
      _ = try await harness.restore(snapshots: .every(1))
    }
    #expect(try await harness.journal.base.load("account") == before, sourceLocation: sourceLocation)
    #expect(harness.journal.appendCalls.isEmpty, sourceLocation: sourceLocation)
    let thrown = try #require(error, sourceLocation: sourceLocation)
    guard case .decodingFailed("account", let sequence, let underlying as DurableDecodingFailure) = thrown else {
      Issue.record(
        "expected decodingFailed with a DurableDecodingFailure, got \(thrown)", sourceLocation: sourceLocation)
      throw thrown
    }
    return (thrown, sequence, underlying)
  }

  @Test("an event whose field has another type names the system, the sequence and the field")
  func eventFieldOfAnotherType() async throws {
    let (error, sequence, failure) = try await failure(events: [
      #"{"version":1,"value":{"deposit":{"_0":4}}}"#,
      #"{"version":1,"value":{"deposit":{"_0":"four"}}}"#,
    ])
    #expect(sequence == 2)
    #expect(failure.record == .event)
    #expect(failure.field == "deposit._0")
    #expect(failure.typeName == "FeedbackLoopDurableTests.Account.Event")
    let message = "\(error)"
    #expect(message.hasPrefix("Event 2 of system \"account\" did not decode: "), "\(message)")
    #expect(message.contains("at field \"deposit._0\""), "\(message)")
    #expect(message.contains("Int"), "\(message)")
    #expect(message.hasSuffix("the restore stopped and wrote nothing."), "\(message)")
  }

  @Test("a snapshot missing a field names the snapshot, its sequence and the missing field")
  func snapshotMissingAField() async throws {
    let (error, sequence, failure) = try await failure(
      events: [#"{"version":1,"value":{"deposit":{"_0":4}}}"#],
      snapshot: #"{"version":1,"value":{"balance":4,"paidOut":[]}}"#)
    #expect(sequence == 1)
    #expect(failure.record == .snapshot)
    #expect(failure.field == "deposits")
    #expect("\(error)".hasPrefix("The snapshot at 1 of system \"account\" did not decode"), "\(error)")
    #expect("\(error)".contains("no value for the key \"deposits\""), "\(error)")
  }

  @Test("a wrong element deep in an array names its index")
  func elementOfAnArray() async throws {
    let (_, _, failure) = try await failure(
      events: [#"{"version":1,"value":{"deposit":{"_0":4}}}"#],
      snapshot: #"{"version":1,"value":{"balance":4,"deposits":[4,null],"paidOut":[]}}"#)
    #expect(failure.field == "deposits[1]")
  }

  @Test("an unknown event case names the value itself")
  func unknownCase() async throws {
    let (error, _, failure) = try await failure(events: [#"{"version":1,"value":{"refund":{"_0":4}}}"#])
    #expect(failure.record == .event)
    #expect("\(error)".hasPrefix("Event 1 of system \"account\" did not decode"), "\(error)")
  }

  @Test("bytes that are no envelope at all name the missing version")
  func notAnEnvelope() async throws {
    let (_, sequence, failure) = try await failure(events: [#"{"deposit":{"_0":4}}"#])
    #expect(sequence == 1)
    #expect(failure.field == "version")
  }

  @Test("bytes that are not JSON at all name no field, and say why")
  func notJSON() async throws {
    let (error, _, failure) = try await failure(events: [String(repeating: "\u{1}", count: 3)])
    #expect(failure.field == nil)
    #expect("\(error)".contains("at the value itself"), "\(error)")
  }

  @Test("a huge undecodable payload names its field, in a message that stays short")
  func hugePayload() async throws {
    let huge = String(repeating: "9", count: 2_000_000)
    let (error, _, failure) = try await failure(events: [#"{"version":1,"value":{"deposit":{"_0":"\#(huge)"}}}"#])
    #expect(failure.field == "deposit._0")
    #expect("\(error)".count < 1_000)
  }

  @Test("a codec whose error is huge gives a message that stays short")
  func hugeUnderlyingError() {
    struct Huge: Error, CustomStringConvertible { var description: String { String(repeating: "x", count: 100_000) } }
    let failure = DurableDecodingFailure(record: .event, typeName: "Event", version: 1, underlying: Huge())
    #expect(failure.field == nil)
    #expect("\(failure)".count < 1_000)
  }
}
