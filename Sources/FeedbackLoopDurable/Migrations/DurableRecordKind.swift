/// Which of a system's stored records an error or a migration is about: a
/// snapshot of its state, or one of its events.
///
/// Closed for good: a journal stores these two kinds and no other.
///
/// ```swift
/// switch failure.record {
/// case .snapshot: print("the stored state")
/// case .event: print("a stored event")
/// }
/// ```
public enum DurableRecordKind: Sendable, Hashable, CustomStringConvertible {
  /// A snapshot of the state.
  case snapshot
  /// An event.
  case event

  public var description: String {
    switch self {
    case .snapshot: "snapshot"
    case .event: "event"
    }
  }
}
