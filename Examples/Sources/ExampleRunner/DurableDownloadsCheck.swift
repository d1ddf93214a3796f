import DurableDownloadsExample
import FeedbackLoopDurable
import FeedbackLoopSQLite

/// The scripted durable session's check, on what its runs left behind:
///
/// - the journal's events, folded from the start through the reducer, give
///   the state the last run ended with (none lost, none applied twice), and
///   the latest snapshot is the fold of the events before it;
/// - the server's table of served requests holds each key once, and each
///   chunk once: a request sent again after the kill had the key it had
///   before, so the server answered it from its table instead of serving
///   the chunk a second time;
/// - every chunk of every file was served.
enum DurableDownloadsCheck {
  struct Report {
    var lines: [String] = []
    var passed = true

    mutating func expect(_ condition: Bool, _ success: String, _ failure: @autoclosure () -> String) {
      lines.append(condition ? "  ✓ \(success)" : "  ✗ \(failure())")
      passed = passed && condition
    }
  }

  /// The check failed: its lines say where.
  struct Failure: Error, CustomStringConvertible {
    var lines: [String]
    var description: String { "the durable session's check failed:\n" + lines.joined(separator: "\n") }
  }

  static func run(directory: String, finalState: DurableDownloads.State, answeredFromTable: Int) async throws -> Report
  {
    let journal = try SQLiteJournal(path: directory + "/journal.sqlite")
    defer { try? journal.close() }
    let codec = JSONDurableCodec()
    var records: [JournalRecord] = []
    while case let page = try await journal.events(
      of: DurableDownloads.systemID, after: records.last?.sequence ?? 0, limit: 500), !page.isEmpty
    {
      records += page
    }
    let events = try records.map {
      try codec.decode(DurableEnvelope<DurableDownloads.Event>.self, from: $0.payload).value
    }
    var report = Report()
    let fold = events.reduce(into: DurableDownloads.State()) { DurableDownloads.reduce(&$0, $1) }
    report.expect(
      records.map(\.sequence) == (0..<records.count).map { UInt64($0 + 1) },
      "the journal holds events 1 to \(records.count), without a gap",
      "the journal's sequences have a gap: \(records.map(\.sequence))")
    report.expect(
      fold == finalState, "the final state equals the fold of the \(events.count) stored events",
      "the final state differs from the fold of the stored events: \(fold) ≠ \(finalState)")
    if let snapshot = try await journal.latestSnapshot(of: DurableDownloads.systemID) {
      let stored = try codec.decode(DurableEnvelope<DurableDownloads.State>.self, from: snapshot.payload).value
      let before = events.prefix(Int(snapshot.sequence)).reduce(into: DurableDownloads.State()) {
        DurableDownloads.reduce(&$0, $1)
      }
      report.expect(
        stored == before, "the latest snapshot, at \(snapshot.sequence), equals the fold of the events before it",
        "the snapshot at \(snapshot.sequence) differs from the fold of the events before it")
    }
    let served = try ServedRequests.read(directory + "/served.log")
    let keys = Set(served.map(\.key))
    let chunks = Dictionary(grouping: served) { "\($0.file) chunk \($0.chunk)" }
    let twice = chunks.filter { $0.value.count > 1 }.keys.sorted()
    report.expect(
      keys.count == served.count && twice.isEmpty,
      "no effect key completed twice: \(served.count) chunk requests served, each chunk once, under one key; "
        + "\(answeredFromTable) sent again after the kill with the key \(answeredFromTable == 1 ? "it" : "they") had, "
        + "answered from the server's table",
      "served more than once: \(served.count - keys.count) keys served again, and these chunks served twice: \(twice)")
    let expected = finalState.files.reduce(0) { $0 + $1.chunks }
    report.expect(
      chunks.count == expected && finalState.isFinished,
      "all \(expected) chunks of the \(finalState.files.count) files arrived",
      "\(chunks.count) chunks served of \(expected)")
    return report
  }
}
