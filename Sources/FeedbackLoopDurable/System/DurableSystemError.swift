import Foundation

/// Why a durable system did not acknowledge an event, or could not be
/// restored.
///
/// Once a running system meets one of the errors that end its durability (a
/// journal that fails, an append refused because another owner writes, an
/// event or state that does not encode), it stops: no later state of it
/// can be made durable, so none of its effects may start (G16). Restore it
/// again from the journal, where every acknowledged event is.
///
/// This enum will grow: end a `switch` over it with `default:` or
/// `@unknown default:`.
///
/// ```swift
/// do {
///   try await cart.sendDurably(.pay)
/// } catch DurableSystemError.refusedByJournal(let conflict) {
///   print(conflict)  // another process owns this cart
/// }
/// ```
public enum DurableSystemError: Error, CustomStringConvertible {
  /// The journal refused an append: another owner claimed the system (a
  /// newer epoch) or wrote to its journal (G17). Nothing was merged.
  case refusedByJournal(SequenceConflict)
  /// The journal failed to append (the disk, the connection): nothing of
  /// that append is stored.
  case journalFailed(systemID: String, underlying: any Error)
  /// An event or a snapshot did not encode.
  case encodingFailed(systemID: String, sequence: UInt64, underlying: any Error)
  /// A stored event or snapshot did not decode: the restore stopped and
  /// wrote nothing. `underlying` is a ``DurableDecodingFailure`` (the
  /// record's kind, the type and version it was decoded as, and the field
  /// where decoding stopped) when the record's bytes were read.
  case decodingFailed(systemID: String, sequence: UInt64, underlying: any Error)
  /// A stored event or snapshot was written by a schema version newer than
  /// this code's (`found` is above `supported`): the restore stopped and
  /// wrote nothing, since no code reads forward.
  case unsupportedSchemaVersion(systemID: String, sequence: UInt64, found: Int, supported: Int)
  /// A stored event or snapshot was written by an older schema version
  /// (`found`), and no migration of its kind from version `from` to
  /// `from + 1` is registered (``DurableMigrations``): the restore stopped
  /// and wrote nothing.
  case migrationMissing(
    systemID: String, sequence: UInt64, record: DurableRecordKind, from: Int, found: Int, supported: Int)
  /// A registered migration of a stored event or snapshot from version
  /// `from` threw, or what it returned did not encode: the restore stopped
  /// and wrote nothing.
  case migrationFailed(systemID: String, sequence: UInt64, record: DurableRecordKind, from: Int, underlying: any Error)
  /// The journal writer's queue was full: the event was refused before it
  /// was reduced (``JournalWriter/QueuePolicy/refuseNewEvents(limit:)``).
  case writerQueueFull(systemID: String)
  /// The system stopped before the event was reduced.
  case stopped(systemID: String)

  public var description: String {
    switch self {
    case .refusedByJournal(let conflict):
      "\(conflict) The system stopped: restore it from the journal where it is owned."
    case .journalFailed(let id, let error):
      "The journal failed to store the events of system \"\(id)\" (\(error)); they are not acknowledged, "
        + "and the system stopped: restore it from the journal when the journal works again."
    case .encodingFailed(let id, let sequence, let error):
      "Event or state \(sequence) of system \"\(id)\" did not encode (\(error)); the system stopped."
    case .decodingFailed(let id, let sequence, let error as DurableDecodingFailure):
      "\(Self.record(error.record, sequence)) of system \"\(id)\" did not decode: \(error); "
        + "the restore stopped and wrote nothing."
    case .decodingFailed(let id, let sequence, let error):
      "Record \(sequence) of system \"\(id)\" did not decode (\(error)); the restore stopped and wrote nothing."
    case .unsupportedSchemaVersion(let id, let sequence, let found, let supported):
      "Record \(sequence) of system \"\(id)\" was written with schema version \(found), newer than the version "
        + "this code reads (\(supported)): a newer version of the app wrote it, and no code reads forward; "
        + "the restore stopped and wrote nothing."
    case .migrationMissing(let id, let sequence, let record, let from, let found, let supported):
      "\(Self.record(record, sequence)) of system \"\(id)\" was written with schema version \(found), and this code "
        + "reads version \(supported), but no migration of the \(record == .snapshot ? "state" : "events") from "
        + "version \(from) to \(from + 1) is registered (DurableMigrations."
        + "\(record == .snapshot ? "state" : "event")(from: \(from), ...)); the restore stopped and wrote nothing."
    case .migrationFailed(let id, let sequence, let record, let from, let error):
      "The migration of \(Self.record(record, sequence, capitalized: false)) of system \"\(id)\" from schema version "
        + "\(from) to \(from + 1) failed (\(error)); the restore stopped and wrote nothing."
    case .writerQueueFull(let id):
      "The journal writer's queue is full: an event for system \"\(id)\" was refused before it was reduced."
    case .stopped(let id):
      "System \"\(id)\" stopped before the event was reduced."
    }
  }

  /// "Event 7" or "The snapshot at 7".
  private static func record(_ kind: DurableRecordKind, _ sequence: UInt64, capitalized: Bool = true) -> String {
    switch kind {
    case .snapshot: "\(capitalized ? "The" : "the") snapshot at \(sequence)"
    case .event: "\(capitalized ? "Event" : "event") \(sequence)"
    }
  }
}
