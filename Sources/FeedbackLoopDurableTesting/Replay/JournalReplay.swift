import CustomDump
import FeedbackLoopDurable
import Foundation

/// The replay check: every system stored in a journal, read with today's
/// codec and migrations and folded through today's reducer, as a restore
/// would, reporting the first divergence of each system.
///
/// Run it in CI over a copy of a real journal (or one your tests fill with
/// the app's previous version): it fails before a release whose reducer or
/// migrations no longer restore what users have stored (G13). A system
/// diverges when one of its records does not decode, a migration is
/// missing or throws, or its stored snapshot differs from the fold of the
/// events before it.
///
/// ```swift
/// @Test func storedAccountsStillRestore() async throws {
///   let journal = try SQLiteJournal(path: fixturePath("accounts.sqlite"))
///   let report = try await JournalReplay.check(
///     journal, initial: Account(), reduce: Account.reduce,
///     schemaVersion: 3, migrations: Account.migrations)
///   #expect(report.isClean, "\(report)")
/// }
/// ```
///
/// The journal's ids are read a page at a time, and so are the events of
/// a `FullHistoryJournal` (such as `InMemoryJournal`): memory holds one
/// page and one state, whatever the history's length. A journal that is
/// not a `FullHistoryJournal` gives only its latest snapshot and the
/// events after it: the check then decodes them and folds the events from
/// the snapshot, but has nothing to compare the snapshot with (the report
/// counts the snapshots it compared). Check a journal that no system is
/// writing to.
public enum JournalReplay {
  /// Checks every system of `journal`.
  ///
  /// - Parameters:
  ///   - journal: the journal to read; nothing is written to it.
  ///   - initial: the state of a system with nothing stored, as the
  ///     systems' restore is given.
  ///   - reduce: today's reducer.
  ///   - codec: the systems' codec.
  ///   - schemaVersion: the version the systems' restore is given.
  ///   - migrations: the migrations the systems' restore is given.
  ///   - pageSize: how many ids, and how many events, are read at a time.
  /// - Returns: what the check found; ``JournalReplayReport/isClean`` when
  ///   every system replays.
  /// - Throws: only what the journal throws (it could not be read).
  public static func check<State: Codable & Sendable & Equatable, Event: Codable & Sendable>(
    _ journal: some Journal,
    initial: State,
    reduce: (inout State, Event) -> Void,
    codec: some DurableCodec = JSONDurableCodec(),
    schemaVersion: Int = 1,
    migrations: DurableMigrations<State, Event> = DurableMigrations(),
    pageSize: Int = 1_000
  ) async throws -> JournalReplayReport<State> {
    guard pageSize > 0 else { fatalError("JournalReplay.check needs a page size of at least 1, not \(pageSize).") }
    var report = JournalReplayReport<State>()
    var lastID: String?
    while case let ids = try await journal.systemIDs(after: lastID, limit: pageSize), !ids.isEmpty {
      for id in ids {
        let decoder = DurableRecordDecoder(
          systemID: id, codec: codec, schemaVersion: schemaVersion, migrations: migrations)
        let divergence: JournalDivergence<State>?
        if let journal = journal as? any FullHistoryJournal {
          divergence = try await checkWholeHistory(
            id, in: journal, initial: initial, reduce: reduce, decoder: decoder, pageSize: pageSize,
            report: &report)
        } else {
          divergence = try await checkLoadedHistory(
            id, in: journal, initial: initial, reduce: reduce, decoder: decoder, report: &report)
        }
        report.systemsChecked += 1
        if let divergence { report.divergences.append(divergence) }
      }
      lastID = ids.last
    }
    return report
  }

  /// Folds every event from `initial`, and compares the latest snapshot
  /// with the fold of the events up to it.
  private static func checkWholeHistory<State: Codable & Sendable & Equatable, Event: Codable & Sendable>(
    _ id: String, in journal: any FullHistoryJournal, initial: State, reduce: (inout State, Event) -> Void,
    decoder: DurableRecordDecoder<State, Event>, pageSize: Int, report: inout JournalReplayReport<State>
  ) async throws -> JournalDivergence<State>? {
    let snapshot = try await journal.latestSnapshot(of: id)
    var state = initial
    var last: UInt64 = 0
    func compareSnapshot(_ record: JournalRecord) -> JournalDivergence<State>? {
      let stored: State
      do {
        stored = try decoder.state(record)
      } catch {
        return JournalDivergence(systemID: id, sequence: record.sequence, reason: .notRestorable(error))
      }
      report.snapshotsCompared += 1
      guard stored != state else { return nil }
      let difference = diff(stored, state, format: .proportional) ?? "(the states differ but dump identically)"
      return JournalDivergence(
        systemID: id, sequence: record.sequence,
        reason: .snapshotDiffers(stored: stored, replayed: state, diff: difference))
    }
    if let snapshot, snapshot.sequence == 0, let divergence = compareSnapshot(snapshot) { return divergence }
    while case let page = try await journal.events(of: id, after: last, limit: pageSize), !page.isEmpty {
      for record in page {
        guard record.sequence == last + 1 else {
          return JournalDivergence(systemID: id, sequence: last + 1, reason: .missingEvent(found: record.sequence))
        }
        do {
          reduce(&state, try decoder.event(record))
        } catch {
          return JournalDivergence(systemID: id, sequence: record.sequence, reason: .notRestorable(error))
        }
        report.eventsReplayed += 1
        last = record.sequence
        if let snapshot, snapshot.sequence == last, let divergence = compareSnapshot(snapshot) { return divergence }
      }
    }
    return nil
  }

  /// Decodes the latest snapshot and folds the events after it: all a
  /// plain journal gives.
  private static func checkLoadedHistory<State: Codable & Sendable & Equatable, Event: Codable & Sendable>(
    _ id: String, in journal: some Journal, initial: State, reduce: (inout State, Event) -> Void,
    decoder: DurableRecordDecoder<State, Event>, report: inout JournalReplayReport<State>
  ) async throws -> JournalDivergence<State>? {
    guard let history = try await journal.load(id) else { return nil }
    var state = initial
    if let snapshot = history.snapshot {
      do {
        state = try decoder.state(snapshot)
      } catch {
        return JournalDivergence(systemID: id, sequence: snapshot.sequence, reason: .notRestorable(error))
      }
    }
    for record in history.events {
      do {
        reduce(&state, try decoder.event(record))
      } catch {
        return JournalDivergence(systemID: id, sequence: record.sequence, reason: .notRestorable(error))
      }
      report.eventsReplayed += 1
    }
    return nil
  }
}
