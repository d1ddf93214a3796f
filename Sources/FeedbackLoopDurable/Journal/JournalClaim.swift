/// What ``Journal/claim(_:)`` gives the new owner of a system: its epoch,
/// and the history it continues from.
///
/// The epoch is a fencing token: every batch the owner appends carries it
/// (``JournalBatch/epoch``), and the journal refuses a batch whose epoch is
/// not the system's current one. A later claim of the same id, by this
/// process or another, moves the epoch on, so the older owner's next append
/// is refused, whatever sequence it expects.
///
/// ```swift
/// let claim = try await journal.claim("cart-42")
/// let next = claim.history?.lastSequence ?? 0
/// let results = try await journal.append([
///   JournalBatch(systemID: "cart-42", epoch: claim.epoch, expectedSequence: next, events: [added])
/// ])
/// ```
public struct JournalClaim: Sendable, Equatable {
  /// The system's epoch from this claim on: 1 for the first claim of an
  /// id, one more at each claim after it, ``Journal/delete(_:)`` or not.
  public var epoch: UInt64
  /// The latest snapshot and the events after it, as ``Journal/load(_:)``
  /// gives them, read in the claim's own transaction; `nil` when nothing is
  /// stored for the id.
  public var history: JournalHistory?

  public init(epoch: UInt64, history: JournalHistory?) {
    self.epoch = epoch
    self.history = history
  }
}
