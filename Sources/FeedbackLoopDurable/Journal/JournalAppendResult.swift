/// What became of one ``JournalBatch`` in ``Journal/append(_:)``.
///
/// ```swift
/// switch results[0] {
/// case .appended(let through): print("stored up to", through)
/// case .refused(let conflict): print(conflict)  // another owner claimed or wrote
/// }
/// ```
public enum JournalAppendResult: Sendable, Equatable {
  /// Stored; the system's last sequence is now `through`.
  case appended(through: UInt64)
  /// Not stored: the writer's epoch or expected sequence was stale.
  case refused(SequenceConflict)
}

/// A batch refused because its writer is not the system's owner: the
/// system was claimed again since the writer's claim (its epoch is stale,
/// ``isFenced``), or another owner wrote to it (its expected sequence is
/// stale). A system's journal has one writer at a time (G17).
///
/// One refusal for both: the journal decides them in one condition of the
/// append's transaction and reports what it found there, the stored epoch
/// and sequence; and the writer's remedy is the same, to stop and leave the
/// system to its owner. ``isFenced`` tells which, and the description
/// says it.
///
/// ```swift
/// if case .refused(let conflict) = results[0], conflict.isFenced {
///   print("claimed again at epoch \(conflict.storedEpoch)")
/// }
/// ```
public struct SequenceConflict: Error, Sendable, Equatable, CustomStringConvertible {
  public var systemID: String
  public var expectedSequence: UInt64
  public var storedSequence: UInt64
  /// The epoch of the refused batch's writer (``JournalBatch/epoch``).
  public var writerEpoch: UInt64
  /// The system's current epoch in the journal.
  public var storedEpoch: UInt64

  public init(
    systemID: String, expectedSequence: UInt64, storedSequence: UInt64, writerEpoch: UInt64 = 0,
    storedEpoch: UInt64 = 0
  ) {
    self.systemID = systemID
    self.expectedSequence = expectedSequence
    self.storedSequence = storedSequence
    self.writerEpoch = writerEpoch
    self.storedEpoch = storedEpoch
  }

  /// Whether the batch was refused for its epoch: the system was claimed
  /// after its writer claimed it.
  public var isFenced: Bool { writerEpoch != storedEpoch }

  public var description: String {
    if isFenced {
      return "The journal of system \"\(systemID)\" refused an append of epoch \(writerEpoch), since the system "
        + "was claimed again (its epoch is \(storedEpoch), its last event \(storedSequence)): another owner "
        + "restored it after this writer did, and a system's journal has one writer at a time."
    }
    return "The journal of system \"\(systemID)\" refused an append that expected its last event to be "
      + "\(expectedSequence), but it is \(storedSequence): another owner is writing to this system, "
      + "and a system's journal has one writer at a time."
  }
}
