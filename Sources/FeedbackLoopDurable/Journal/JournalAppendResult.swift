/// What became of one ``JournalBatch`` in ``Journal/append(_:)``.
///
/// ```swift
/// switch results[0] {
/// case .appended(let through): print("stored up to", through)
/// case .refused(let conflict): print(conflict)  // another owner wrote first
/// }
/// ```
public enum JournalAppendResult: Sendable, Equatable {
  /// Stored; the system's last sequence is now `through`.
  case appended(through: UInt64)
  /// Not stored: the writer's expected sequence was stale.
  case refused(SequenceConflict)
}

/// A batch refused because its writer expected another last sequence than
/// the one stored: another owner wrote to the system's journal (one writer
/// per system), or this writer lost track.
public struct SequenceConflict: Error, Sendable, Equatable, CustomStringConvertible {
  public var systemID: String
  public var expectedSequence: UInt64
  public var storedSequence: UInt64

  public init(systemID: String, expectedSequence: UInt64, storedSequence: UInt64) {
    self.systemID = systemID
    self.expectedSequence = expectedSequence
    self.storedSequence = storedSequence
  }

  public var description: String {
    "The journal of system \"\(systemID)\" refused an append that expected its last event to be "
      + "\(expectedSequence), but it is \(storedSequence): another owner is writing to this system, "
      + "and a system's journal has one writer at a time."
  }
}
