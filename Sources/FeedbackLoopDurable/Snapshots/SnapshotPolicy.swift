/// When a durable system stores a snapshot of its state beside its events,
/// so that a restore reads the snapshot and the events after it rather than
/// the whole history.
///
/// ```swift
/// .every(100)                                   // restore reads at most 99 events
/// .when { state, sequence in state.isCheckedOut }
/// .never                                        // restore folds every event
/// ```
public struct SnapshotPolicy<State: Sendable>: Sendable {
  @usableFromInline let shouldSnapshot: @Sendable (_ state: State, _ sequence: UInt64) -> Bool

  /// A snapshot after each state for which `predicate` holds; it gets the
  /// state and the sequence of the event that produced it.
  public static func when(_ predicate: @escaping @Sendable (State, UInt64) -> Bool) -> SnapshotPolicy {
    SnapshotPolicy(shouldSnapshot: predicate)
  }

  /// A snapshot after every `count` events (the events numbered `count`,
  /// `2 * count`, ...): a restore reads at most `count - 1` events after it.
  public static func every(_ count: UInt64) -> SnapshotPolicy {
    guard count > 0 else { fatalError("SnapshotPolicy.every(_:) needs a count of at least 1, not \(count).") }
    return SnapshotPolicy { _, sequence in sequence % count == 0 }
  }

  /// No snapshots: a restore folds every stored event.
  public static var never: SnapshotPolicy { SnapshotPolicy { _, _ in false } }
}
