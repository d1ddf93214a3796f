import FeedbackLoopDurable
import FeedbackLoopPostgreSQL
import Foundation
import PostgresNIO
import Testing

/// Durable systems in real processes on a PostgreSQL journal:
/// `durable-crash-host` runs 50 systems with effects in flight and
/// acknowledges events with `sendDurably`; the test kills it with SIGKILL at
/// seeded random moments and checks every restart (CrashHarness.swift, the
/// SQLite package's, linked).
///
/// FEEDBACKLOOP_DURABLE_CRASH_KILLS sets the number of kills (15 by default; a
/// soak runs 1,000), FEEDBACKLOOP_DURABLE_CRASH_SEED replays a run whose seed
/// a failure printed; FEEDBACKLOOP_DURABLE_CRASH_FULL_READS how many kills
/// pass between two reads of every stored row (50; the others read the new
/// rows only).
@Suite("Durable systems on PostgreSQL, killed and cut off")
struct PostgresDurableCrashTests {
  @Test(
    "G16 durable systems killed with SIGKILL at random moments restore the fold of every acknowledged event, none twice, and start every effect in flight again, with its key"
  )
  func killedHost() async throws {
    let settings = CrashSettings.fromEnvironment(defaultKills: 15)
    printNow(
      "[durable crash, PostgreSQL] seed \(settings.seed), \(settings.kills) kills, \(settings.systems) systems "
        + "(FEEDBACKLOOP_DURABLE_CRASH_SEED=\(settings.seed) replays it)")
    let server = TestServer.shared
    let prefix = TestServer.newTablePrefix()
    let directory = try makeCrashDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let summary = try await runCrashLoop(
      settings: settings, hostArguments: [String(server.port), prefix], directory: directory
    ) {
      try await storedEvents(server, prefix, after: $0)
    }
    printNow(
      "[durable crash, PostgreSQL] \(summary.kills) kills, \(summary.acknowledged) events acknowledged, "
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
    let server = TestServer.shared
    let prefix = TestServer.newTablePrefix()
    let directory = try makeCrashDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try await runOwnershipCheck(hostArguments: [String(server.port), prefix], directory: directory) {
      try await storedEvents(server, prefix, after: $0)
    }
  }

  @Test(
    "G16 a server stopped under a durable system: its append fails promptly with the journal's error, nothing acknowledged is lost, and it restores once the server is back"
  )
  func serverStoppedUnderDurableSystem() async throws {
    let server = try TestServer.start()
    let prefix = TestServer.newTablePrefix()
    try await server.withClient { client in
      // The tables are made, and the pool connected, by a journal that
      // waits: a loaded machine may take more than the tested bound for it.
      let patient = try await PostgresJournal.open(client: client, tablePrefix: prefix, operationTimeout: nil)
      let journal = try await PostgresJournal.open(client: client, tablePrefix: prefix, operationTimeout: .seconds(2))
      let counter = try await DurableSystem<[Int], Int>.restore(
        id: "counter", writer: JournalWriter(journal: journal), initial: [], reduce: { $0.append($1) })
      for value in 1...5 { try await counter.sendDurably(value) }
      try server.stop()

      let clock = ContinuousClock()
      let stoppedAt = clock.now
      // The pool may first notice its connection closed and fail at once;
      // after that, a request waits for a new connection.
      _ = try? await journal.load("counter")
      let error = await #expect(throws: DurableSystemError.self) { try await counter.sendDurably(6) }
      let waited = stoppedAt.duration(to: clock.now)
      // postgres-nio's pool alone keeps a request waiting for a minute.
      #expect(waited < .seconds(10), "the append failed \(waited) after the server stopped")
      guard case .journalFailed(let id, let underlying)? = error else {
        Issue.record("expected journalFailed, got \(String(describing: error))")
        return
      }
      #expect(id == "counter")
      let journalError = try #require(underlying as? PostgresJournalError)
      #expect(journalError.description.hasPrefix("The PostgreSQL journal could not append 1 batch:"))
      #expect(counter.failure != nil && counter.isStopped)

      try server.resume()
      // Restored through a journal that waits for the pool to connect again.
      let restored = try await DurableSystem<[Int], Int>.restore(
        id: "counter", writer: JournalWriter(journal: patient), initial: [], reduce: { $0.append($1) })
      #expect(restored.state == [1, 2, 3, 4, 5])
      try await restored.sendDurably(6)
      #expect(try await patient.load("counter")?.events.count == 6)
    }
    try server.stop()
  }

  @Test("an operation on a stopped server fails within the journal's timeout, saying the server did not answer")
  func operationTimeout() async throws {
    let server = try TestServer.start()
    try await server.withClient { client in
      let prefix = TestServer.newTablePrefix()
      _ = try await PostgresJournal.open(client: client, tablePrefix: prefix, operationTimeout: nil)
      let journal = try await PostgresJournal.open(
        client: client, tablePrefix: prefix, operationTimeout: .milliseconds(500))
      try server.stop()
      let clock = ContinuousClock()
      let stoppedAt = clock.now
      // The pool may first notice its connection closed and fail at once;
      // the next operation waits for a new connection, and times out.
      _ = try? await journal.load("any")
      let error = await #expect(throws: PostgresJournalError.self) { try await journal.load("any") }
      #expect(stoppedAt.duration(to: clock.now) < .seconds(10))
      #expect(error?.description.contains("did not answer within 0.5 seconds") == true, "\(String(describing: error))")
    }
  }
}

/// The stored events of every system, read from the table, not through
/// `load` (which starts at the latest snapshot): of a system in `after`,
/// those after that sequence (`StoredEventsReader`).
private func storedEvents(
  _ server: TestServer, _ prefix: String, after: [String: UInt64]
) async throws -> StoredRows {
  let ids = Array(after.keys)
  let sequences = after.values.map(Int64.init)  // in the keys' order
  let rows = try await server.withClient { client in
    var rows: [(system: String, sequence: UInt64, payload: Data)] = []
    let query: PostgresQuery = """
      SELECT e.system_id, e.sequence, e.payload FROM \(unescaped: prefix)events e
      LEFT JOIN unnest(\(ids)::text[], \(sequences)::bigint[]) AS after(system_id, sequence)
        ON after.system_id = e.system_id
      WHERE e.sequence > COALESCE(after.sequence, 0)
      ORDER BY e.system_id, e.sequence
      """
    for try await (system, sequence, payload) in try await client.query(query).decode((String, Int64, ByteBuffer).self)
    {
      rows.append((system, UInt64(sequence), Data(payload.readableBytesView)))
    }
    return rows
  }
  return Dictionary(grouping: rows, by: \.system).mapValues { $0.map { ($0.sequence, $0.payload) } }
}
