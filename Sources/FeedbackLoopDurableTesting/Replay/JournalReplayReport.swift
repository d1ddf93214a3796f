/// What ``JournalReplay/check(_:initial:reduce:codec:schemaVersion:migrations:pageSize:)``
/// found: how much it replayed, and the first divergence of each system
/// that has one.
///
/// Its description is a readable summary with every divergence, made to be
/// the message of a failing test:
///
/// ```swift
/// #expect(report.isClean, "\(report)")
/// // Replayed 3 systems (240 events; 2 snapshots compared): 1 diverges.
/// // - "account-7", the snapshot at 100: the stored snapshot differs from the fold of the events before it:
/// //     Account(
/// //   -   balance: 40,
/// //   +   balance: 45,
/// //   ...
/// ```
public struct JournalReplayReport<State: Sendable>: Sendable, CustomStringConvertible {
  /// How many systems were checked.
  public var systemsChecked = 0
  /// How many events were decoded and reduced.
  public var eventsReplayed = 0
  /// How many stored snapshots were compared with the fold of the events
  /// before them (none for a journal that is not a `FullHistoryJournal`).
  public var snapshotsCompared = 0
  /// The first divergence of each system that has one, in the order of the
  /// systems' ids.
  public var divergences: [JournalDivergence<State>] = []

  public init() {}

  /// Whether every system replays: no divergence.
  public var isClean: Bool { divergences.isEmpty }

  public var description: String {
    let summary =
      "Replayed \(systemsChecked) system\(systemsChecked == 1 ? "" : "s") (\(eventsReplayed) event"
      + "\(eventsReplayed == 1 ? "" : "s"); \(snapshotsCompared) snapshot\(snapshotsCompared == 1 ? "" : "s") compared)"
    guard !isClean else { return summary + ": no divergence." }
    return summary + ": \(divergences.count) diverge\(divergences.count == 1 ? "s" : "").\n"
      + divergences.map { "- \($0)" }.joined(separator: "\n")
  }
}
