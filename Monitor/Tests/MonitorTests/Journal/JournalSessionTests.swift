import FeedbackLoop
import FeedbackLoopDebugging
import FeedbackLoopDurable
import FeedbackLoopSQLite
import Foundation
import Testing

@testable import FeedbackLoopMonitorClient
@testable import MonitorServer

/// A basket whose events a durable system stores in a SQLite journal, which
/// the monitor then opens.
enum Basket {
  struct State: Codable, Sendable, Equatable {
    var items: [String] = []
    var paid = false
  }

  enum Event: Codable, Sendable, Equatable {
    case add(String)
    case remove(String)
    case pay
  }

  static func reduce(_ state: inout State, _ event: Event) {
    switch event {
    case .add(let item): state.items.append(item)
    case .remove(let item): state.items.removeAll { $0 == item }
    case .pay: state.paid = true
    }
  }

  static let events: [Event] = [
    .add("tea"), .add("milk"), .add("bread"), .remove("milk"), .add("jam"), .pay, .add("figs"),
  ]

  /// A journal in a folder of its own, holding `basket-1` (the events
  /// above, a snapshot every 3) and `basket-2` (one event).
  static func writeJournal() async throws -> (path: String, folder: String) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("monitor-journal-\(UUID().uuidString)")
      .path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let path = folder + "/journal.sqlite"
    let journal = try SQLiteJournal(path: path)
    let writer = JournalWriter(journal: journal)
    let first = try await DurableSystem.restore(
      id: "basket-1", writer: writer, initial: State(), reduce: reduce, snapshots: .every(3))
    for event in events { first.send(event) }
    try await first.waitForCommit()
    first.stop()
    let second = try await DurableSystem.restore(id: "basket-2", writer: writer, initial: State(), reduce: reduce)
    try await second.sendDurably(.add("salt"))
    second.stop()
    try journal.close()
    return (path, folder)
  }
}

@Suite("A SQLite journal opened in the monitor")
struct JournalSessionTests {
  @Test("a journal opens as a recorded session: its ids, then one moment per stored event, its JSON as stored")
  func opensAsARecordedSession() async throws {
    let (path, folder) = try await Basket.writeJournal()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let journal = try SQLiteJournal(path: path)
    defer { try? journal.close() }
    #expect(try await JournalSession.systemIDs(in: journal) == ["basket-1", "basket-2"])

    let session = try await JournalSession.timeline(of: "basket-1", in: journal)
    #expect(session.problems.isEmpty)
    #expect(session.moments.map(\.sequence) == Array(0...7))
    #expect(session.moments.first?.event == nil)
    // Each event as the app's Codable wrote it.
    let expectedEvents = try Basket.events.map { try JSONValue(encoding: $0) }
    #expect(session.moments.dropFirst().map(\.event) == expectedEvents)
    // The state: what the journal knows. The latest snapshot is at 6.
    let snapshot = try JSONValue(
      encoding: Basket.events.prefix(6).reduce(into: Basket.State()) { Basket.reduce(&$0, $1) })
    func field(_ moment: Int, _ name: String) -> JSONValue? {
      guard case .object(let fields) = session.moments[moment].state else { return nil }
      return fields[name]
    }
    #expect(field(6, "snapshot") == snapshot)
    #expect(field(6, "snapshotSequence") == .number(6))
    #expect(field(6, "eventsAfterSnapshot") == .number(0))
    #expect(field(7, "snapshot") == snapshot)
    #expect(field(7, "eventsAfterSnapshot") == .number(1))
    #expect(field(7, "schemaVersion") == .number(1))
    // Before the snapshot, the journal keeps no state.
    #expect(field(5, "snapshot") == .null)
    #expect(field(5, "eventsAfterSnapshot") == .number(5))
  }

  @Test("a stored record that is not a JSON envelope is a problem naming its sequence, and the others are read")
  func undecodableRecordIsReported() async throws {
    let (path, folder) = try await Basket.writeJournal()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let journal = try SQLiteJournal(path: path)
    defer { try? journal.close() }
    let epoch = try await journal.claim("basket-2").epoch
    let results = try await journal.append([
      JournalBatch(systemID: "basket-2", epoch: epoch, expectedSequence: 1, events: [Data([0xFF, 0x00, 0x01])])
    ])
    #expect(results == [.appended(through: 2)])
    let session = try await JournalSession.timeline(of: "basket-2", in: journal)
    #expect(session.moments.map(\.sequence) == [0, 1])
    #expect(session.problems.count == 1)
    #expect(session.problems.first?.sequence == 2)
    #expect(session.problems.first?.description.contains("event 2 is not a JSON envelope") == true)
  }

  @Test("the app's own code folds its journal into a timeline file with every state, which the monitor reads")
  func appFoldsItsJournalIntoATimelineFile() async throws {
    let (path, folder) = try await Basket.writeJournal()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let journal = try SQLiteJournal(path: path)
    defer { try? journal.close() }
    let url = URL(fileURLWithPath: folder + "/basket-1.jsonl")
    let written = try await JournalTimeline.write(
      of: "basket-1", in: journal, initial: Basket.State(), reduce: Basket.reduce, to: url)
    #expect(written == 8)
    let file = try TimelineFile<Basket.State, Basket.Event>(contentsOf: url)
    #expect(file.problems.isEmpty)
    #expect(file.moments.map(\.event) == [nil] + Basket.events)
    #expect(file.moments.last?.state == Basket.State(items: ["tea", "bread", "jam", "figs"], paid: true))
    // The fold replays to the same states (G13).
    #expect(Replay.check(file.moments, reduce: Basket.reduce).isIdentical)
  }
}
