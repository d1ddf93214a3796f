import FeedbackLoopDurable
import FeedbackLoopDurableTesting
import FeedbackLoopSQLite
import Foundation
import Testing

@Suite("The replay check over a SQLite journal")
struct SQLiteJournalReplayTests {
  enum Event: Codable, Sendable, Equatable { case add(Int) }

  private struct Envelope<Value: Encodable>: Encodable {
    var version = 1
    var value: Value
  }

  /// 2,500 events of one system with a snapshot of the running total after
  /// the 2,000th, the one before it wrong when `wrongSnapshot`.
  private func journal(in directory: TemporaryDirectory, wrongSnapshot: Bool) async throws -> SQLiteJournal {
    let journal = try SQLiteJournal(path: directory.path("journal.sqlite"))
    let codec = JSONDurableCodec()
    var total = 0
    for start in stride(from: 0, to: 2_500, by: 500) {
      let amounts = Array(start..<start + 500)
      total += amounts.reduce(0, +)
      let snapshotted = start + 500 == 2_000
      let results = try await journal.append([
        JournalBatch(
          systemID: "tally", expectedSequence: UInt64(start),
          events: try amounts.map { try codec.encode(Envelope(value: Event.add($0))) },
          snapshot: snapshotted ? try codec.encode(Envelope(value: wrongSnapshot ? total + 1 : total)) : nil)
      ])
      #expect(results == [.appended(through: UInt64(start + 500))])
    }
    return journal
  }

  @Test("the SQLite journal reads the events before its snapshot in pages, and the snapshot is compared")
  func comparesTheSnapshot() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let journal = try await journal(in: directory, wrongSnapshot: false)
    let first = try await journal.events(of: "tally", after: 0, limit: 3)
    #expect(first.map(\.sequence) == [1, 2, 3])
    #expect(try await journal.events(of: "tally", after: 2_499, limit: 10).map(\.sequence) == [2_500])
    #expect(try await journal.events(of: "unknown", after: 0, limit: 10).isEmpty)
    #expect(try await journal.latestSnapshot(of: "tally")?.sequence == 2_000)
    let report = try await JournalReplay.check(
      journal, initial: 0,
      reduce: { (total: inout Int, event: Event) in
        if case .add(let amount) = event { total += amount }
      }, pageSize: 300)
    #expect(report.isClean, "\(report)")
    #expect(report.eventsReplayed == 2_500)
    #expect(report.snapshotsCompared == 1)
  }

  @Test("a stored snapshot that differs from the fold is reported at its sequence")
  func wrongSnapshot() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let journal = try await journal(in: directory, wrongSnapshot: true)
    let report = try await JournalReplay.check(
      journal, initial: 0,
      reduce: { (total: inout Int, event: Event) in
        if case .add(let amount) = event { total += amount }
      })
    #expect(report.divergences.map(\.sequence) == [2_000], "\(report)")
  }
}
