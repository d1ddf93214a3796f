import Foundation

/// How the snapshots and events that older versions of an app stored
/// become today's: one step per schema version, for the state and for the
/// events.
///
/// A step registered `from: n` reads a record of schema version `n` as the
/// type that version wrote, and returns it as version `n + 1` wrote it (the
/// current `State` or `Event` when `n + 1` is the current version). A
/// restore applies the steps in order, from the version a record was
/// written with up to the system's `schemaVersion`; what the system writes
/// afterwards is in the current version. A record whose chain has a gap, or
/// whose version is newer than the code, stops the restore with an error
/// that names the system, the sequence and the missing version, and the
/// restore writes nothing.
///
/// Keep the types older versions wrote (a `V1` namespace, say): a step
/// decodes one with the system's codec, so a migration is ordinary Swift,
/// checked by the compiler, and works with any ``DurableCodec``.
///
/// Renaming a field (version 1 called the balance `total`):
///
/// ```swift
/// enum V1 {
///   struct Account: Codable { var total: Int; var pendingPayout: Int? }
/// }
///
/// let migrations = DurableMigrations<Account, AccountEvent>()
///   .state(from: 1, as: V1.Account.self) { old in
///     Account(balance: old.total, pendingPayout: old.pendingPayout)
///   }
///   .eventsUnchanged(from: 1)
/// ```
///
/// Splitting an event case (version 2's `withdrawn(amount, toBank)` became
/// `paidOut` and `spent` in version 3). Each stored event becomes exactly
/// one event, since the journal's sequence numbers stay as they are:
///
/// ```swift
/// let migrations = DurableMigrations<Account, AccountEvent>()
///   .event(from: 2, as: V2.AccountEvent.self) { old -> AccountEvent in
///     switch old {
///     case .deposited(let amount): .deposited(amount)
///     case .withdrawn(let amount, toBank: true): .paidOut(amount)
///     case .withdrawn(let amount, toBank: false): .spent(amount)
///     }
///   }
///   .stateUnchanged(from: 2)
///
/// let account = try await DurableSystem.restore(
///   id: "account-7", writer: writer, initial: Account(), reduce: reduce,
///   schemaVersion: 3, migrations: migrations)
/// ```
///
/// A step that throws stops the restore with
/// ``DurableSystemError/migrationFailed(systemID:sequence:record:from:underlying:)``.
public struct DurableMigrations<State: Codable & Sendable, Event: Codable & Sendable>: Sendable {
  var stateSteps: [Int: MigrationStep] = [:]
  var eventSteps: [Int: MigrationStep] = [:]

  /// No migrations: every record must be of the current version.
  public init() {}

  /// Registers how a snapshot of schema version `version`, stored as an
  /// `Old`, becomes version `version + 1`.
  ///
  /// ```swift
  /// migrations.state(from: 1, as: V1.Account.self) { old in
  ///   Account(balance: old.total, pendingPayout: old.pendingPayout)
  /// }
  /// ```
  public func state<Old: Decodable, New: Encodable>(
    from version: Int, as old: Old.Type = Old.self, _ migrate: @escaping @Sendable (Old) throws -> New
  ) -> Self {
    var migrations = self
    migrations.stateSteps[version] = Self.step(.snapshot, from: version, registered: stateSteps, migrate)
    return migrations
  }

  /// Registers how an event of schema version `version`, stored as an
  /// `Old`, becomes version `version + 1`.
  ///
  /// ```swift
  /// migrations.event(from: 1, as: V1.AccountEvent.self) { old -> AccountEvent in
  ///   switch old {
  ///   case .credit(let amount): .deposited(amount)
  ///   }
  /// }
  /// ```
  public func event<Old: Decodable, New: Encodable>(
    from version: Int, as old: Old.Type = Old.self, _ migrate: @escaping @Sendable (Old) throws -> New
  ) -> Self {
    var migrations = self
    migrations.eventSteps[version] = Self.step(.event, from: version, registered: eventSteps, migrate)
    return migrations
  }

  /// Registers that snapshots of schema version `version` are stored as
  /// version `version + 1` stores them: only the events changed.
  ///
  /// ```swift
  /// migrations.stateUnchanged(from: 1)
  /// ```
  public func stateUnchanged(from version: Int) -> Self {
    var migrations = self
    migrations.stateSteps[version] = Self.unchanged(.snapshot, from: version, registered: stateSteps)
    return migrations
  }

  /// Registers that events of schema version `version` are stored as
  /// version `version + 1` stores them: only the state changed.
  ///
  /// ```swift
  /// migrations.eventsUnchanged(from: 1)
  /// ```
  public func eventsUnchanged(from version: Int) -> Self {
    var migrations = self
    migrations.eventSteps[version] = Self.unchanged(.event, from: version, registered: eventSteps)
    return migrations
  }

  /// The highest version a step starts from, or `nil` when none is
  /// registered.
  var highestStepVersion: Int? { (Array(stateSteps.keys) + Array(eventSteps.keys)).max() }

  private static func step<Old: Decodable, New: Encodable>(
    _ record: DurableRecordKind, from version: Int, registered: [Int: MigrationStep],
    _ migrate: @escaping @Sendable (Old) throws -> New
  ) -> MigrationStep {
    checkNotRegistered(record, version, registered)
    return MigrationStep(TypedMigrationStep(version: version, migrate: migrate))
  }

  private static func unchanged(
    _ record: DurableRecordKind, from version: Int, registered: [Int: MigrationStep]
  ) -> MigrationStep {
    checkNotRegistered(record, version, registered)
    return MigrationStep(UnchangedMigrationStep())
  }

  private static func checkNotRegistered(
    _ record: DurableRecordKind, _ version: Int, _ registered: [Int: MigrationStep]
  ) {
    if registered[version] != nil {
      fatalError(
        "DurableMigrations: a migration of the \(record == .snapshot ? "state" : "events") from schema version "
          + "\(version) is registered twice; register one step per version.")
    }
  }
}

/// One registered step: the bytes of a record at some version in, the
/// bytes of the same record at the next version out.
struct MigrationStep: Sendable {
  enum Outcome {
    case migrated(Data)
    /// The record did not decode as the type the step reads.
    case notDecoded(any Error)
    /// The user's migration threw, or its result did not encode.
    case failed(any Error)
  }

  private let step: any MigrationStepRunning

  init(_ step: some MigrationStepRunning) { self.step = step }

  /// The type the step decodes, or `nil` for an unchanged step.
  var readTypeName: String? { step.readTypeName }

  func run(_ payload: Data, _ codec: any DurableCodec) -> MigrationStep.Outcome { step.run(payload, codec) }
}

/// A step as a type rather than a closure: a closure that decodes `Old`
/// would capture its metatype, which Swift 6 does not know to be
/// `Sendable`.
protocol MigrationStepRunning: Sendable {
  var readTypeName: String? { get }
  func run(_ payload: Data, _ codec: any DurableCodec) -> MigrationStep.Outcome
}

/// Decodes an `Old`, migrates it, encodes the `New` at the next version.
private struct TypedMigrationStep<Old: Decodable, New: Encodable>: MigrationStepRunning {
  let version: Int
  let migrate: @Sendable (Old) throws -> New

  var readTypeName: String? { String(reflecting: Old.self) }

  func run(_ payload: Data, _ codec: any DurableCodec) -> MigrationStep.Outcome {
    let old: Old
    do {
      old = try codec.decode(StoredValue<Old>.self, from: payload).value
    } catch {
      return .notDecoded(error)
    }
    do {
      return .migrated(try codec.encode(StoredEnvelope(version: version + 1, value: try migrate(old))))
    } catch {
      return .failed(error)
    }
  }
}

/// Keeps the bytes: the next step, or the final decode, reads the value
/// only, not the envelope's version.
private struct UnchangedMigrationStep: MigrationStepRunning {
  var readTypeName: String? { nil }
  func run(_ payload: Data, _ codec: any DurableCodec) -> MigrationStep.Outcome { .migrated(payload) }
}
