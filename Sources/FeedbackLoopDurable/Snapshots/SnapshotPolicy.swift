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
  /// The rule, kept as a count where it is one: a closure that captures the
  /// count needs a context of its own, allocated for each durable system.
  @usableFromInline
  enum Rule: Sendable {
    case every(UInt64)
    case when(@Sendable (_ state: State, _ sequence: UInt64) -> Bool)
    case never
  }

  @usableFromInline let rule: Rule

  /// A snapshot after each state for which `predicate` holds; it gets the
  /// state and the sequence of the event that produced it.
  public static func when(_ predicate: @escaping @Sendable (State, UInt64) -> Bool) -> SnapshotPolicy {
    SnapshotPolicy(rule: .when(predicate))
  }

  /// A snapshot after every `count` events (the events numbered `count`,
  /// `2 * count`, ...): a restore reads at most `count - 1` events after it.
  public static func every(_ count: UInt64) -> SnapshotPolicy {
    guard count > 0 else { fatalError("SnapshotPolicy.every(_:) needs a count of at least 1, not \(count).") }
    return SnapshotPolicy(rule: .every(count))
  }

  /// No snapshots: a restore folds every stored event.
  public static var never: SnapshotPolicy { SnapshotPolicy(rule: .never) }

  /// Whether the state that the event numbered `sequence` produced is
  /// stored as a snapshot.
  @inlinable
  func shouldSnapshot(_ state: State, _ sequence: UInt64) -> Bool {
    switch rule {
    case .every(let count): sequence % count == 0
    case .when(let predicate): predicate(state, sequence)
    case .never: false
    }
  }
}
