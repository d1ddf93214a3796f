import FeedbackLoopDurable

/// The first record of one system that today's code does not restore as
/// it was stored.
///
/// ```swift
/// for divergence in report.divergences {
///   switch divergence.reason {
///   case .snapshotDiffers(_, _, let diff): print(divergence.systemID, divergence.sequence, diff)
///   case .notRestorable(let error): print(error)  // names the field, or the missing migration
///   default: print(divergence)
///   }
/// }
/// ```
public struct JournalDivergence<State: Sendable>: Sendable, CustomStringConvertible {
  /// Why a system's record diverges.
  ///
  /// This enum will grow: end a `switch` over it with `default:` or
  /// `@unknown default:`.
  public enum Reason: Sendable {
    /// The stored snapshot differs from the fold of the events before it:
    /// the reducer, or a migration, changed what those events make.
    /// `diff` is CustomDump's: `−` stored, `+` replayed.
    case snapshotDiffers(stored: State, replayed: State, diff: String)
    /// The record does not decode, no migration reaches it, a migration
    /// threw, or a newer version wrote it: a restore of the system would
    /// stop with this error.
    case notRestorable(DurableSystemError)
    /// The journal has no event numbered `sequence`: the next one it gave
    /// is numbered `found` (a journal keeps its events gapless).
    case missingEvent(found: UInt64)
  }

  /// The system's id.
  public var systemID: String
  /// The sequence of the diverging event, or of the diverging snapshot
  /// (the last event it includes).
  public var sequence: UInt64
  public var reason: Reason

  public init(systemID: String, sequence: UInt64, reason: Reason) {
    self.systemID = systemID
    self.sequence = sequence
    self.reason = reason
  }

  public var description: String {
    switch reason {
    case .snapshotDiffers(_, _, let diff):
      let indented = diff.split(separator: "\n", omittingEmptySubsequences: false).map { "    \($0)" }
      return "\"\(systemID)\", the snapshot at \(sequence): the stored snapshot differs from the fold of the events "
        + "before it:\n\(indented.joined(separator: "\n"))\n    (Stored: −, Replayed: +)"
    case .notRestorable(let error):
      return "\"\(systemID)\", at \(sequence): \(error)"
    case .missingEvent(let found):
      return "\"\(systemID)\": the journal has no event \(sequence); the next one it holds is \(found)."
    }
  }
}
