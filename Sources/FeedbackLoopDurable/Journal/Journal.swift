import Foundation

/// Where durable systems keep their events and snapshots.
///
/// A journal stores, for each system id, a gapless run of events numbered
/// from 1, and at most one snapshot that matters: the latest. It knows
/// nothing of the events' types: a durable system encodes them.
///
/// ``append(_:)`` writes the batches of many systems in one transaction (a
/// durable system's writer batches them: group commit). Each batch names the
/// sequence its writer expects to be the system's last, and the epoch of
/// its writer's claim; a batch whose expectation or epoch is stale is
/// refused, never merged, which is how a journal keeps one writer per
/// system (G17: a second or stale owner is refused by the journal itself,
/// in the append's own transaction, not by a lock that a crash could leave
/// behind nor by the good will of a process that was paused).
///
/// ## Epochs
///
/// A writer becomes a system's owner by claiming it: ``claim(_:)`` moves
/// the id's epoch on by one and returns it with the history, atomically.
/// From then on, a batch of an older epoch is refused even when its
/// expected sequence matches the stored one (as it does when the new owner
/// appended as many events as the old one expects, or after ``delete(_:)``).
/// An id never claimed has epoch 0, the default of ``JournalBatch``, so a
/// tool that appends without claiming works until someone claims the id.
/// Readers that must not take a system over (a replay check, a monitor)
/// call ``load(_:)``, which claims nothing.
///
/// ```swift
/// let journal = InMemoryJournal()
/// let claim = try await journal.claim("cart-42")  // epoch 1, history nil
/// let results = try await journal.append([
///   JournalBatch(systemID: "cart-42", epoch: claim.epoch, expectedSequence: 0, events: [added, paid])
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
  /// A batch is appended only when its ``JournalBatch/epoch`` is the
  /// system's current epoch (0 for an id never claimed) and its
  /// ``JournalBatch/expectedSequence`` equals the system's last stored
  /// sequence (0 for a system with nothing stored); otherwise it is refused
  /// with the epoch and the sequence actually stored, and the other batches
  /// are still appended. The journal checks both in the transaction that
  /// appends, so no claim can come between the check and the write. Two batches of one system in one
  /// call are applied in order, the second expecting what the first appended.
  ///
  /// - Returns: one result per batch, in the batches' order.
  /// - Throws: when the transaction could not be committed (the disk, the
  ///   connection). Nothing of the call is then stored.
  func append(_ batches: [JournalBatch]) async throws -> [JournalAppendResult]

  /// Makes the caller the system's owner: moves the id's epoch on by one
  /// and returns it, with the latest snapshot and the events after it, in
  /// one transaction.
  ///
  /// From its return on, every batch of an older epoch is refused: an
  /// append of the former owner either committed before the claim (and its
  /// events are in the returned history) or is refused. Claiming an id
  /// with nothing stored stores nothing that ``load(_:)`` or
  /// ``systemIDs(after:limit:)`` shows, but its epoch is kept.
  func claim(_ systemID: String) async throws -> JournalClaim

  /// The latest snapshot of a system and the events after it, in order; `nil`
  /// when nothing is stored for the id. It claims nothing: readers that
  /// must not fence the system's owner (a replay check, a monitor) use it.
  func load(_ systemID: String) async throws -> JournalHistory?

  /// The ids that have something stored, in ascending order, after `id` (from
  /// the first when `nil`), at most `limit` of them.
  func systemIDs(after id: String?, limit: Int) async throws -> [String]

  /// Deletes everything stored for a system but its epoch, which the next
  /// claim moves on from: a re-created id never reuses an old epoch, so no
  /// owner from before the delete can write to it once it is claimed again.
  /// Deleting an unknown id does nothing.
  func delete(_ systemID: String) async throws
}
