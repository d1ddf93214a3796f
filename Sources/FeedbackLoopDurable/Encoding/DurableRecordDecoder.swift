import Foundation

/// Decodes a system's stored records as a restore does: reads the version,
/// applies the registered migrations up to the current version, decodes
/// the value, and turns every failure into a ``DurableSystemError`` that
/// names the system, the sequence, and what failed.
///
/// The replay check of `FeedbackLoopDurableTesting` decodes with it too, so
/// that it reads the journal exactly as a restore would.
package struct DurableRecordDecoder<State: Codable & Sendable, Event: Codable & Sendable>: Sendable {
  package let systemID: String
  let codec: any DurableCodec
  let schemaVersion: Int
  let migrations: DurableMigrations<State, Event>

  package init(
    systemID: String, codec: any DurableCodec, schemaVersion: Int, migrations: DurableMigrations<State, Event>
  ) {
    if let highest = migrations.highestStepVersion, highest >= schemaVersion {
      fatalError(
        "DurableSystem \"\(systemID)\": a migration from schema version \(highest) is registered, but the "
          + "system's schemaVersion is \(schemaVersion): a migration from version n makes version n + 1, "
          + "so the schemaVersion must be above \(highest).")
    }
    self.systemID = systemID
    self.codec = codec
    self.schemaVersion = schemaVersion
    self.migrations = migrations
  }

  package func state(_ record: JournalRecord) throws(DurableSystemError) -> State {
    try decode(State.self, record, .snapshot, steps: migrations.stateSteps)
  }

  package func event(_ record: JournalRecord) throws(DurableSystemError) -> Event {
    try decode(Event.self, record, .event, steps: migrations.eventSteps)
  }

  private func decode<Value: Codable>(
    _ type: Value.Type, _ record: JournalRecord, _ kind: DurableRecordKind, steps: [Int: MigrationStep]
  ) throws(DurableSystemError) -> Value {
    let found: Int
    do {
      found = try codec.decode(DurableEnvelopeVersion.self, from: record.payload).version
    } catch {
      throw .decodingFailed(
        systemID: systemID, sequence: record.sequence,
        underlying: DurableDecodingFailure(
          record: kind, typeName: "DurableEnvelope<\(String(reflecting: Value.self))>", version: schemaVersion,
          underlying: error))
    }
    guard found <= schemaVersion else {
      throw .unsupportedSchemaVersion(
        systemID: systemID, sequence: record.sequence, found: found, supported: schemaVersion)
    }
    var payload = record.payload
    var version = found
    while version < schemaVersion {
      guard let step = steps[version] else {
        throw .migrationMissing(
          systemID: systemID, sequence: record.sequence, record: kind, from: version, found: found,
          supported: schemaVersion)
      }
      switch step.run(payload, codec) {
      case .migrated(let migrated): payload = migrated
      case .notDecoded(let error):
        throw .decodingFailed(
          systemID: systemID, sequence: record.sequence,
          underlying: DurableDecodingFailure(
            record: kind, typeName: step.readTypeName ?? String(reflecting: Value.self), version: version,
            underlying: error))
      case .failed(let error):
        throw .migrationFailed(
          systemID: systemID, sequence: record.sequence, record: kind, from: version, underlying: error)
      }
      version += 1
    }
    do {
      return try codec.decode(StoredValue<Value>.self, from: payload).value
    } catch {
      throw .decodingFailed(
        systemID: systemID, sequence: record.sequence,
        underlying: DurableDecodingFailure(
          record: kind, typeName: String(reflecting: Value.self), version: schemaVersion, underlying: error))
    }
  }
}
