import Foundation

/// Where durable systems keep their events and snapshots.
///
/// A journal stores, for each system id, a gapless run of events numbered
/// from 1, and at most one snapshot that matters: the latest. It knows
/// nothing of the events' types: a durable system encodes them.
///
/// ``append(_:)`` writes the batches of many systems in one transaction (a
/// durable system's writer batches them: group commit). Each batch names the
/// sequence its writer expects to be the system's last; a batch whose
/// expectation is stale is refused, never merged, which is how a journal keeps
/// one writer per system (a second or stale owner is refused by the journal
/// itself, not by a lock that a crash could leave behind).
///
/// ```swift
/// let journal = InMemoryJournal()
/// let results = try await journal.append([
///   JournalBatch(systemID: "cart-42", expectedSequence: 0, events: [added, paid])
/// ])
/// // results == [.appended(through: 2)]
/// let history = try await journal.load("cart-42")
/// // history?.events.map(\.sequence) == [1, 2]
/// ```
///
/// Every backend passes the same conformance suite.
public protocol Journal: Sendable {
  /// Appends each batch, all of them in one transaction.
  ///
  /// A batch is appended only when its ``JournalBatch/expectedSequence``
  /// equals the system's last stored sequence (0 for a system with nothing
  /// stored); otherwise it is refused with the sequence actually stored, and
  /// the other batches are still appended. Two batches of one system in one
  /// call are applied in order, the second expecting what the first appended.
  ///
  /// - Returns: one result per batch, in the batches' order.
  /// - Throws: when the transaction could not be committed (the disk, the
  ///   connection). Nothing of the call is then stored.
  func append(_ batches: [JournalBatch]) async throws -> [JournalAppendResult]

  /// The latest snapshot of a system and the events after it, in order; `nil`
  /// when nothing is stored for the id.
  func load(_ systemID: String) async throws -> JournalHistory?

  /// The ids that have something stored, in ascending order, after `id` (from
  /// the first when `nil`), at most `limit` of them.
  func systemIDs(after id: String?, limit: Int) async throws -> [String]

  /// Deletes everything stored for a system. Deleting an unknown id does
  /// nothing.
  func delete(_ systemID: String) async throws
}
