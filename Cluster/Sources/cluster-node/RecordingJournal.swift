import FeedbackLoopDurable
import Foundation

/// The node's journal, which writes down each claim and append it makes,
/// for the failover test's checker: "claim NODE ID EPOCH" once a claim
/// returns, "try NODE ID EPOCH FIRST LAST" before an append is sent, and
/// "ok NODE ID EPOCH FIRST LAST" once the journal stored it. A node killed
/// between the two leaves a "try" whose batch may be stored.
struct RecordingJournal: Journal {
  let base: any Journal
  let node: Int
  let record: @Sendable (String) -> Void

  func append(_ batches: [JournalBatch]) async throws -> [JournalAppendResult] {
    let written = batches.filter { !$0.events.isEmpty }
    for batch in written { record("try \(node) \(line(batch))") }
    let results = try await base.append(batches)
    for (batch, result) in zip(batches, results) where !batch.events.isEmpty {
      if case .appended = result { record("ok \(node) \(line(batch))") }
    }
    return results
  }

  func claim(_ systemID: String) async throws -> JournalClaim {
    let claim = try await base.claim(systemID)
    record("claim \(node) \(systemID) \(claim.epoch)")
    return claim
  }

  func load(_ systemID: String) async throws -> JournalHistory? { try await base.load(systemID) }

  func systemIDs(after id: String?, limit: Int) async throws -> [String] {
    try await base.systemIDs(after: id, limit: limit)
  }

  func delete(_ systemID: String) async throws { try await base.delete(systemID) }

  private func line(_ batch: JournalBatch) -> String {
    "\(batch.systemID) \(batch.epoch) \(batch.expectedSequence + 1) \(batch.lastSequence)"
  }
}

/// Appends a whole line with write(2), so that a line written before a
/// SIGKILL is in the file.
func writeLine(_ line: String, to file: Int32) {
  let bytes = Array((line + "\n").utf8)
  _ = bytes.withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
}
