import FeedbackLoop
import FeedbackLoopDurable
import FeedbackLoopTesting
import Foundation
import Testing

@Suite("Migrations between schema versions", .runsLeftoverJobs, .timeLimit(.minutes(1)))
struct MigrationTests {
  typealias V1 = OlderAccounts.V1
  typealias V2 = OlderAccounts.V2

  private func restore(
    _ harness: DurableHarness, schemaVersion: Int = OlderAccounts.currentVersion,
    migrations: DurableMigrations<Account.State, Account.Event> = OlderAccounts.migrations,
    snapshots: SnapshotPolicy<Account.State> = .never
  ) async throws -> DurableSystem<Account.State, Account.Event> {
    try await DurableSystem.restore(
      id: "account", writer: harness.writer, initial: Account.State(), reduce: Account.reduce,
      snapshots: snapshots, schemaVersion: schemaVersion, migrations: migrations, environment: harness.environment)
  }

  private func store(
    _ harness: DurableHarness, after: UInt64 = 0, events: [Data], snapshot: Data? = nil
  ) async throws {
    let results = try await harness.journal.base.append([
      JournalBatch(systemID: "account", expectedSequence: after, events: events, snapshot: snapshot)
    ])
    #expect(results == [.appended(through: after + UInt64(events.count))])
  }

  /// Expects the restore to throw, and the journal to hold exactly what it
  /// held before: the restore wrote nothing.
  private func expectRestoreFails(
    _ harness: DurableHarness, schemaVersion: Int = OlderAccounts.currentVersion,
    migrations: DurableMigrations<Account.State, Account.Event> = OlderAccounts.migrations,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws -> DurableSystemError {
    let before = try await harness.journal.base.load("account")
    let error = await #expect(throws: DurableSystemError.self, sourceLocation: sourceLocation) {
      _ = try await restore(harness, schemaVersion: schemaVersion, migrations: migrations, snapshots: .every(1))
    }
    #expect(try await harness.journal.base.load("account") == before, sourceLocation: sourceLocation)
    #expect(harness.journal.appendCalls.isEmpty, sourceLocation: sourceLocation)
    return try #require(error, sourceLocation: sourceLocation)
  }

  @Test("a restore brings a version 1 snapshot and version 1 events through every step to today's state")
  func migratesVersionOne() async throws {
    let harness = DurableHarness()
    try await store(
      harness, events: [try OlderAccounts.stored(V1.Event.credit(5), version: 1)],
      snapshot: try OlderAccounts.stored(V1.State(total: 5, deposits: [5]), version: 1))
    try await store(
      harness, after: 1,
      events: [
        try OlderAccounts.stored(V1.Event.credit(7), version: 1),
        try OlderAccounts.stored(V1.Event.payout(3, done: false), version: 1),
        try OlderAccounts.stored(V1.Event.payout(3, done: true), version: 1),
      ])
    let account = try await restore(harness)
    #expect(account.state == Account.State(balance: 9, deposits: [5, 7], paidOut: [3]))
    #expect(account.committedSequence == 4)
    account.stop()
  }

  @Test("what a migrated system writes afterwards is of the current version, events and snapshots")
  func writesTheCurrentVersion() async throws {
    let harness = DurableHarness()
    try await store(
      harness, events: [try OlderAccounts.stored(V1.Event.credit(5), version: 1)],
      snapshot: try OlderAccounts.stored(V1.State(total: 5, deposits: [5]), version: 1))
    let account = try await restore(harness, snapshots: .every(1))
    try await account.sendDurably(.deposit(2))
    account.stop()
    let history = try #require(try await harness.journal.base.load("account"))
    let event = try #require(try await harness.journal.base.events(of: "account", after: 1, limit: 10).first)
    #expect(event.sequence == 2)
    #expect(String(decoding: event.payload, as: UTF8.self) == #"{"value":{"deposit":{"_0":2}},"version":3}"#)
    let snapshot = try #require(history.snapshot)
    #expect(snapshot.sequence == 2)
    let decoded = try JSONDurableCodec().decode(DurableEnvelope<Account.State>.self, from: snapshot.payload)
    #expect(decoded.version == 3)
    #expect(decoded.value == Account.State(balance: 7, deposits: [5, 2]))
    // And the next restore reads the mixed history again.
    let again = try await restore(harness)
    #expect(again.state == Account.State(balance: 7, deposits: [5, 2]))
    again.stop()
  }

  @Test("a snapshot of version 1 with events of version 2 after it: each record takes its own path")
  func snapshotAndEventsOfDifferentVersions() async throws {
    let harness = DurableHarness()
    try await store(
      harness, events: [try OlderAccounts.stored(V1.Event.credit(5), version: 1)],
      snapshot: try OlderAccounts.stored(V1.State(total: 5, deposits: [5]), version: 1))
    try await store(
      harness, after: 1,
      events: [
        try OlderAccounts.stored(V2.Event.deposit(amount: 4), version: 2),
        try OlderAccounts.stored(Account.Event.requestPayout(6), version: 3),
      ])
    let account = try await restore(harness)
    #expect(account.state == Account.State(balance: 9, deposits: [5, 4], pendingPayout: 6))
    account.stop()
  }

  @Test("a migration that throws stops the restore, names the system, the sequence and the version, writes nothing")
  func throwingMigration() async throws {
    let harness = DurableHarness()
    try await store(
      harness,
      events: [
        try OlderAccounts.stored(V1.Event.credit(5), version: 1),
        try OlderAccounts.stored(V1.Event.credit(-1), version: 1),
      ])
    let error = try await expectRestoreFails(harness)
    guard case .migrationFailed("account", 2, .event, 1, let underlying) = error else {
      Issue.record("expected migrationFailed, got \(error)")
      return
    }
    #expect(underlying is OlderAccounts.NegativeDeposit)
    #expect(
      "\(error)"
        == "The migration of event 2 of system \"account\" from schema version 1 to 2 failed "
        + "(a deposit of -1 cannot be migrated); the restore stopped and wrote nothing.")
  }

  @Test("a chain with a gap stops the restore, naming the missing step, and writes nothing")
  func chainWithAGap() async throws {
    let harness = DurableHarness()
    try await store(harness, events: [try OlderAccounts.stored(V1.Event.credit(5), version: 1)])
    // Steps from 1 and from 3 to a version 4; none from 2.
    let gapped = DurableMigrations<Account.State, Account.Event>()
      .eventsUnchanged(from: 1)
      .eventsUnchanged(from: 3)
    let error = try await expectRestoreFails(harness, schemaVersion: 4, migrations: gapped)
    guard case .migrationMissing("account", 1, .event, from: 2, found: 1, supported: 4) = error else {
      Issue.record("expected migrationMissing, got \(error)")
      return
    }
    #expect("\(error)".contains("no migration of the events from version 2 to 3 is registered"), "\(error)")
  }

  @Test("a snapshot of an older version with no state migration stops the restore, naming the snapshot")
  func snapshotWithoutAPath() async throws {
    let harness = DurableHarness()
    try await store(
      harness, events: [try OlderAccounts.stored(V1.Event.credit(5), version: 1)],
      snapshot: try OlderAccounts.stored(V1.State(total: 5, deposits: [5]), version: 1))
    let eventsOnly = DurableMigrations<Account.State, Account.Event>().eventsUnchanged(from: 1)
    let error = try await expectRestoreFails(harness, schemaVersion: 2, migrations: eventsOnly)
    guard case .migrationMissing("account", 1, .snapshot, from: 1, found: 1, supported: 2) = error else {
      Issue.record("expected migrationMissing, got \(error)")
      return
    }
    #expect("\(error)".hasPrefix("The snapshot at 1 of system \"account\""), "\(error)")
  }

  @Test("a record of a version newer than the code stops the restore and writes nothing")
  func futureVersion() async throws {
    let harness = DurableHarness()
    try await store(harness, events: [try OlderAccounts.stored(Account.Event.deposit(1), version: 4)])
    let error = try await expectRestoreFails(harness)
    guard case .unsupportedSchemaVersion("account", 1, found: 4, supported: 3) = error else {
      Issue.record("expected unsupportedSchemaVersion, got \(error)")
      return
    }
    #expect("\(error)".contains("newer than the version this code reads (3)"), "\(error)")
  }

  @Test("a record of an older version that does not decode as that version's type names the type and field")
  func oldRecordThatDoesNotDecode() async throws {
    let harness = DurableHarness()
    try await store(harness, events: [Data(#"{"version":1,"value":{"credit":{"_0":"five"}}}"#.utf8)])
    let error = try await expectRestoreFails(harness)
    guard case .decodingFailed("account", 1, let underlying as DurableDecodingFailure) = error else {
      Issue.record("expected decodingFailed, got \(error)")
      return
    }
    #expect(underlying.record == .event)
    #expect(underlying.typeName == "FeedbackLoopDurableTests.OlderAccounts.V1.Event")
    #expect(underlying.version == 1)
    #expect(underlying.field == "credit._0")
  }

  @Test("with no migrations, a record of the current version restores as before")
  func noMigrationsNeeded() async throws {
    let harness = DurableHarness()
    try await store(harness, events: [try OlderAccounts.stored(Account.Event.deposit(3), version: 3)])
    let account = try await restore(harness, migrations: DurableMigrations())
    #expect(account.state == Account.State(balance: 3, deposits: [3]))
    account.stop()
  }

  @Test("a migration registered at or above the schema version stops with a clear message")
  func migrationAboveTheVersion() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = try? await DurableSystem.restore(
        id: "account", writer: JournalWriter(journal: InMemoryJournal()), initial: Account.State(),
        reduce: Account.reduce, migrations: DurableMigrations().eventsUnchanged(from: 1))
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("the schemaVersion must be above 1"), "stderr: \(message)")
  }

  @Test("a migration registered twice for one version stops with a clear message")
  func migrationRegisteredTwice() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = DurableMigrations<Account.State, Account.Event>().eventsUnchanged(from: 1).event(from: 1) {
        (old: Account.Event) in old
      }
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("from schema version 1 is registered twice"), "stderr: \(message)")
  }
}

@Suite("Closed enums of durable systems")
struct DurableClosedEnumsTests {
  @Test("DurableRecordKind is closed for good: a switch over it needs no default")
  func recordKind() {
    func name(_ kind: DurableRecordKind) -> String {
      switch kind {
      case .snapshot: "snapshot"
      case .event: "event"
      }
    }
    #expect([DurableRecordKind.snapshot, .event].map(name) == ["snapshot", "event"])
    #expect("\(DurableRecordKind.snapshot)" == "snapshot")
  }
}
