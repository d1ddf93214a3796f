import FeedbackLoop
import FeedbackLoopDurable
import FeedbackLoopDurableTesting
import Foundation
import Testing

/// A tally: the system these tests store and replay.
private enum Tally {
  struct State: Codable, Sendable, Equatable {
    var total = 0
    var count = 0
  }

  enum Event: Codable, Sendable, Equatable {
    case add(Int)
  }

  static func reduce(_ state: inout State, _ event: Event) {
    switch event {
    case .add(let amount):
      state.total += amount
      state.count += 1
    }
  }

  /// A reducer changed since the events were stored: it counts twice.
  static func changedReduce(_ state: inout State, _ event: Event) {
    reduce(&state, event)
    state.count += 1
  }

  enum V1 {
    enum Event: Codable { case plus(Int) }
  }

  struct Refused: Error, CustomStringConvertible {
    var description: String { "refused" }
  }

  static func stored(_ value: some Encodable, version: Int = 1) -> Data {
    try! JSONDurableCodec().encode(Envelope(version: version, value: value))
  }

  private struct Envelope<Value: Encodable>: Encodable {
    var version: Int
    var value: Value
  }

  /// Appends `amounts` to `journal` for `id` as the app stores them, with a
  /// snapshot every `snapshotEvery` events, in batches of that size.
  static func store(
    _ amounts: [Int], id: String, in journal: some Journal, snapshotEvery: Int = 10, version: Int = 1
  ) async throws {
    var state = State()
    var sequence: UInt64 = 0
    for start in stride(from: 0, to: amounts.count, by: snapshotEvery) {
      let part = amounts[start..<min(amounts.count, start + snapshotEvery)]
      for amount in part { reduce(&state, .add(amount)) }
      let snapshot = part.count == snapshotEvery ? stored(state, version: version) : nil
      let results = try await journal.append([
        JournalBatch(
          systemID: id, expectedSequence: sequence,
          events: part.map { stored(Event.add($0), version: version) }, snapshot: snapshot)
      ])
      guard results == [.appended(through: sequence + UInt64(part.count))] else { throw Refused() }
      sequence += UInt64(part.count)
    }
  }
}

/// A journal that is only a `Journal`: it gives the latest snapshot and the
/// events after it, nothing before.
private struct PlainJournal: Journal {
  let base = InMemoryJournal()
  func append(_ batches: [JournalBatch]) async throws -> [JournalAppendResult] { try await base.append(batches) }
  func claim(_ systemID: String) async throws -> JournalClaim { try await base.claim(systemID) }
  func load(_ systemID: String) async throws -> JournalHistory? { try await base.load(systemID) }
  func systemIDs(after id: String?, limit: Int) async throws -> [String] {
    try await base.systemIDs(after: id, limit: limit)
  }
  func delete(_ systemID: String) async throws { try await base.delete(systemID) }
}

/// A full-history journal that counts what it is asked, and can lose one
/// event.
private final class CountingJournal: FullHistoryJournal {
  struct Counts {
    var largestPage = 0
    var eventPages = 0
    var idPages = 0
    var loads = 0
  }

  let base = InMemoryJournal()
  let counts = Locked(Counts())
  let lostEvent: (id: String, sequence: UInt64)?

  init(losing lostEvent: (id: String, sequence: UInt64)? = nil) { self.lostEvent = lostEvent }

  func append(_ batches: [JournalBatch]) async throws -> [JournalAppendResult] { try await base.append(batches) }
  func claim(_ systemID: String) async throws -> JournalClaim { try await base.claim(systemID) }
  func load(_ systemID: String) async throws -> JournalHistory? {
    counts.withLock { $0.loads += 1 }
    return try await base.load(systemID)
  }
  func systemIDs(after id: String?, limit: Int) async throws -> [String] {
    counts.withLock { $0.idPages += 1 }
    return try await base.systemIDs(after: id, limit: limit)
  }
  func delete(_ systemID: String) async throws { try await base.delete(systemID) }
  func events(of systemID: String, after sequence: UInt64, limit: Int) async throws -> [JournalRecord] {
    var page = try await base.events(of: systemID, after: sequence, limit: limit)
    if let lostEvent, lostEvent.id == systemID { page.removeAll { $0.sequence == lostEvent.sequence } }
    counts.withLock { counts in
      counts.eventPages += 1
      counts.largestPage = max(counts.largestPage, page.count)
    }
    return page
  }
  func latestSnapshot(of systemID: String) async throws -> JournalRecord? {
    try await base.latestSnapshot(of: systemID)
  }
}

@Suite("The replay check of stored journals")
struct JournalReplayTests {
  @Test("G13 every stored system replays through today's reducer: the report is clean and says what it checked")
  func cleanJournal() async throws {
    let journal = InMemoryJournal()
    try await Tally.store(Array(1...25), id: "a", in: journal)
    try await Tally.store([4, 5], id: "b", in: journal)
    try await Tally.store([], id: "c", in: journal)
    let report = try await JournalReplay.check(journal, initial: Tally.State(), reduce: Tally.reduce)
    #expect(report.isClean, "\(report)")
    #expect(report.systemsChecked == 2)
    #expect(report.eventsReplayed == 27)
    #expect(report.snapshotsCompared == 1)
    #expect("\(report)" == "Replayed 2 systems (27 events; 1 snapshot compared): no divergence.")
  }

  @Test("G17 the replay check claims nothing: a running owner of a checked system goes on appending")
  func replayClaimsNothing() async throws {
    let journal = InMemoryJournal()
    let owner = try await DurableSystem.restore(
      id: "a", writer: JournalWriter(journal: journal), initial: Tally.State(), reduce: Tally.reduce)
    try await owner.sendDurably(.add(1))
    let report = try await JournalReplay.check(journal, initial: Tally.State(), reduce: Tally.reduce)
    #expect(report.isClean, "\(report)")
    try await owner.sendDurably(.add(2))
    #expect(owner.failure == nil)
    #expect(try await journal.claim("a").epoch == owner.epoch + 1)
    owner.stop()
  }

  @Test("G13 a changed reducer: the stored snapshot differs from the fold, reported once per system with a diff")
  func changedReducer() async throws {
    let journal = InMemoryJournal()
    try await Tally.store(Array(1...25), id: "a", in: journal)
    try await Tally.store(Array(1...5), id: "b", in: journal)
    let report = try await JournalReplay.check(journal, initial: Tally.State(), reduce: Tally.changedReduce)
    #expect(!report.isClean)
    #expect(report.divergences.count == 1)
    let divergence = try #require(report.divergences.first)
    #expect(divergence.systemID == "a")
    #expect(divergence.sequence == 20)
    guard case .snapshotDiffers(let stored, let replayed, let diff) = divergence.reason else {
      Issue.record("expected snapshotDiffers, got \(divergence)")
      return
    }
    #expect(stored == Tally.State(total: 210, count: 20))
    #expect(replayed == Tally.State(total: 210, count: 40))
    #expect(diff.contains("\u{2212}   count: 20") && diff.contains("+   count: 40"), "\(diff)")
    let description = "\(report)"
    #expect(
      description.hasPrefix("Replayed 2 systems (25 events; 1 snapshot compared): 1 diverges.\n"), "\(description)")
    #expect(description.contains("- \"a\", the snapshot at 20: the stored snapshot differs"), "\(description)")
    #expect(description.contains("(Stored: −, Replayed: +)"), "\(description)")
  }

  @Test("a record that does not decode is the system's divergence, naming the field; later systems are checked")
  func undecodableRecord() async throws {
    let journal = InMemoryJournal()
    try await Tally.store([1, 2], id: "a", in: journal)
    _ = try await journal.append([
      JournalBatch(
        systemID: "a", expectedSequence: 2,
        events: [
          Data(#"{"version":1,"value":{"add":{"_0":"three"}}}"#.utf8),
          Data(#"{"version":1,"value":{"add":{"_0":true}}}"#.utf8),
        ])
    ])
    try await Tally.store([1, 2], id: "b", in: journal)
    let report = try await JournalReplay.check(journal, initial: Tally.State(), reduce: Tally.reduce)
    #expect(report.systemsChecked == 2)
    #expect(report.divergences.map(\.systemID) == ["a"])
    let divergence = try #require(report.divergences.first)
    #expect(divergence.sequence == 3)
    guard case .notRestorable(.decodingFailed("a", 3, let failure as DurableDecodingFailure)) = divergence.reason
    else {
      Issue.record("expected a decoding failure, got \(divergence)")
      return
    }
    #expect(failure.field == "add._0")
    #expect("\(report)".contains("Event 3 of system \"a\" did not decode"), "\(report)")
  }

  @Test("migrations run as in a restore: an old journal replays, a throwing or missing migration is reported")
  func migrations() async throws {
    let journal = InMemoryJournal()
    // Version 1 called `add` `plus`; "b" has a record the migration refuses.
    _ = try await journal.append([
      JournalBatch(
        systemID: "a", expectedSequence: 0,
        events: [Tally.stored(Tally.V1.Event.plus(2)), Tally.stored(Tally.V1.Event.plus(3))],
        snapshot: Tally.stored(Tally.State(total: 5, count: 2))),
      JournalBatch(systemID: "a", expectedSequence: 2, events: [Tally.stored(Tally.Event.add(1), version: 2)]),
      JournalBatch(systemID: "b", expectedSequence: 0, events: [Tally.stored(Tally.V1.Event.plus(-1))]),
    ])
    let migrations = DurableMigrations<Tally.State, Tally.Event>()
      .stateUnchanged(from: 1)
      .event(from: 1, as: Tally.V1.Event.self) { old -> Tally.Event in
        guard case .plus(let amount) = old, amount >= 0 else { throw Tally.Refused() }
        return .add(amount)
      }
    let report = try await JournalReplay.check(
      journal, initial: Tally.State(), reduce: Tally.reduce, schemaVersion: 2, migrations: migrations)
    #expect(report.eventsReplayed == 3)
    #expect(report.snapshotsCompared == 1)
    #expect(report.divergences.map(\.systemID) == ["b"])
    guard case .notRestorable(.migrationFailed("b", 1, .event, from: 1, _)) = report.divergences.first?.reason else {
      Issue.record("expected migrationFailed, got \(report)")
      return
    }
    let gapped = try await JournalReplay.check(
      journal, initial: Tally.State(), reduce: Tally.reduce, schemaVersion: 3, migrations: migrations)
    #expect(gapped.divergences.count == 2)
    guard
      case .notRestorable(.migrationMissing("a", 1, .event, from: 2, found: 1, supported: 3)) = gapped
        .divergences.first?.reason
    else {
      Issue.record("expected migrationMissing, got \(gapped)")
      return
    }
  }

  @Test("a future version is reported, not misread")
  func futureVersion() async throws {
    let journal = InMemoryJournal()
    try await Tally.store([1], id: "a", in: journal, version: 7)
    let report = try await JournalReplay.check(journal, initial: Tally.State(), reduce: Tally.reduce)
    guard
      case .notRestorable(.unsupportedSchemaVersion("a", 1, found: 7, supported: 1)) = report.divergences.first?
        .reason
    else {
      Issue.record("expected unsupportedSchemaVersion, got \(report)")
      return
    }
  }

  @Test("huge histories and many systems are read a page at a time")
  func pagedHistories() async throws {
    let journal = CountingJournal()
    try await Tally.store(Array(repeating: 1, count: 20_000), id: "big", in: journal, snapshotEvery: 1_000)
    for index in 0..<250 { try await Tally.store([index], id: "small-\(index)", in: journal) }
    let report = try await JournalReplay.check(
      journal, initial: Tally.State(), reduce: Tally.reduce, pageSize: 100)
    #expect(report.isClean, "\(report)")
    #expect(report.systemsChecked == 251)
    #expect(report.eventsReplayed == 20_250)
    #expect(report.snapshotsCompared == 1)
    let counts = journal.counts.withLock { $0 }
    #expect(counts.largestPage == 100)
    #expect(counts.idPages == 4)  // 100, 100, 51, then an empty page
    #expect(counts.eventPages == 200 + 1 + 250 * 2)
    #expect(counts.loads == 0)
  }

  @Test("a journal that loses an event is reported at the missing sequence")
  func missingEvent() async throws {
    let journal = CountingJournal(losing: (id: "a", sequence: 3))
    try await Tally.store([1, 2, 3, 4], id: "a", in: journal)
    let report = try await JournalReplay.check(journal, initial: Tally.State(), reduce: Tally.reduce)
    let divergence = try #require(report.divergences.first)
    #expect(divergence.sequence == 3)
    guard case .missingEvent(found: 4) = divergence.reason else {
      Issue.record("expected missingEvent, got \(divergence)")
      return
    }
  }

  @Test("a journal without the events before its snapshot: the snapshot is decoded, not compared")
  func plainJournal() async throws {
    let journal = PlainJournal()
    try await Tally.store(Array(1...25), id: "a", in: journal)
    let report = try await JournalReplay.check(journal, initial: Tally.State(), reduce: Tally.changedReduce)
    #expect(report.isClean, "\(report)")
    #expect(report.eventsReplayed == 5)
    #expect(report.snapshotsCompared == 0)
    _ = try await journal.append([
      JournalBatch(
        systemID: "a", expectedSequence: 25, events: [],
        snapshot: Data(#"{"version":1,"value":{"total":"x","count":0}}"#.utf8))
    ])
    let broken = try await JournalReplay.check(journal, initial: Tally.State(), reduce: Tally.reduce)
    guard
      case .notRestorable(.decodingFailed("a", 25, let failure as DurableDecodingFailure)) = broken.divergences
        .first?.reason
    else {
      Issue.record("expected a decoding failure, got \(broken)")
      return
    }
    #expect(failure.record == .snapshot)
    #expect(failure.field == "total")
  }
}
