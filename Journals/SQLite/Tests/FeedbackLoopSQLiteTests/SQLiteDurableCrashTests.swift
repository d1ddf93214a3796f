import FeedbackLoopDurable
import Foundation
import GRDB
import Testing

/// Durable systems in real processes on a SQLite journal: `durable-crash-host`
/// runs 50 systems with effects in flight and acknowledges events with
/// `sendDurably`; the test kills it with SIGKILL at seeded random moments and
/// checks every restart (CrashHarness.swift).
///
/// FEEDBACKLOOP_DURABLE_CRASH_KILLS sets the number of kills (25 by default; a
/// soak runs 1,000), FEEDBACKLOOP_DURABLE_CRASH_SEED replays a run whose seed
/// a failure printed; FEEDBACKLOOP_DURABLE_CRASH_FULL_READS how many kills
/// pass between two reads of every stored row (50; the others read the new
/// rows only).
@Suite("Durable systems on SQLite, killed")
struct SQLiteDurableCrashTests {
  @Test(
    "G16 durable systems killed with SIGKILL at random moments restore the fold of every acknowledged event, none twice, and start every effect in flight again, with its key"
  )
  func killedHost() async throws {
    let settings = CrashSettings.fromEnvironment(defaultKills: 25)
    printNow(
      "[durable crash, SQLite] seed \(settings.seed), \(settings.kills) kills, \(settings.systems) systems "
        + "(FEEDBACKLOOP_DURABLE_CRASH_SEED=\(settings.seed) replays it)")
    let directory = try makeCrashDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/journal.sqlite"
    let summary = try await runCrashLoop(settings: settings, hostArguments: [path], directory: directory) {
      try await storedEvents(path, after: $0)
    }
    printNow(
      "[durable crash, SQLite] \(summary.kills) kills, \(summary.acknowledged) events acknowledged, "
        + "\(summary.storedEvents) stored, \(summary.effectsResumed) effects in flight at a kill started again "
        + "(\(summary.killedWithEffectsInFlight) kills found effects in flight), "
        + "\(summary.effectsWithKeyCheckedAcrossRuns) effects started in several runs with one key: all checks passed")
    #expect(summary.kills == settings.kills)
    #expect(summary.acknowledged >= settings.kills)
    #expect(summary.effectsResumed == 0 || summary.effectsWithKeyCheckedAcrossRuns > 0)
  }

  @Test(
    "G17 processes opening the same system: the latest owns it, an earlier one is refused, paused (SIGSTOP) or not")
  func twoProcesses() async throws {
    let directory = try makeCrashDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/journal.sqlite"
    try await runOwnershipCheck(hostArguments: [path], directory: directory) {
      try await storedEvents(path, after: $0)
    }
  }
}

/// The stored events of every system, read from the table, not through
/// `load` (which starts at the latest snapshot): of a system in `after`,
/// those after that sequence (`StoredEventsReader`).
private func storedEvents(
  _ path: String, after: [String: UInt64]
) async throws -> StoredRows {
  guard FileManager.default.fileExists(atPath: path) else { return [:] }
  let database = try DatabaseQueue(path: path)
  defer { try? database.close() }
  let afterJSON = String(decoding: try JSONEncoder().encode(after), as: UTF8.self)
  let rows = try await database.read { database in
    try Row.fetchAll(
      database,
      sql: """
        SELECT e.system_id, e.sequence, e.payload FROM journal_events e
        LEFT JOIN json_each(?) after ON after.key = e.system_id
        WHERE e.sequence > COALESCE(after.value, 0)
        ORDER BY e.system_id, e.sequence
        """,
      arguments: [afterJSON]
    )
    .map { (system: $0[0] as String, sequence: UInt64($0[1] as Int64), payload: $0[2] as Data) }
  }
  return Dictionary(grouping: rows, by: \.system).mapValues { $0.map { ($0.sequence, $0.payload) } }
}
