import FeedbackLoopDurable
import Foundation

extension JournalCheck {
  /// The latest snapshot wins, and only the events after it are loaded.
  static let snapshots = JournalCheck(
    name: "snapshots",
    rule: "a load returns the latest snapshot and only the events after it"
  ) { context in
    let journal = try await context.newJournal()
    _ = try await journal.append([
      JournalBatch(
        systemID: "s", expectedSequence: 0, events: [payload("1"), payload("2"), payload("3")],
        snapshot: payload("state-3"))
    ])
    try context.requireEqual(
      try await journal.load("s"),
      JournalHistory(snapshot: JournalRecord(sequence: 3, payload: payload("state-3")), events: []),
      "a system whose batch stored 3 events and a snapshot")

    _ = try await journal.append([
      JournalBatch(systemID: "s", expectedSequence: 3, events: [payload("4"), payload("5")])
    ])
    try context.requireEqual(
      try await journal.load("s"),
      JournalHistory(
        snapshot: JournalRecord(sequence: 3, payload: payload("state-3")), events: records(["4", "5"], from: 4)),
      "the snapshot at 3 and the events appended after it")

    let result = try await journal.append([
      JournalBatch(systemID: "s", expectedSequence: 5, events: [payload("6")], snapshot: payload("state-6")),
      JournalBatch(systemID: "s", expectedSequence: 6, events: [payload("7")]),
    ])
    try context.requireEqual(result, [.appended(through: 6), .appended(through: 7)], "the results")
    let history = try await journal.load("s")
    try context.requireEqual(
      history,
      JournalHistory(
        snapshot: JournalRecord(sequence: 6, payload: payload("state-6")), events: records(["7"], from: 7)),
      "the latest snapshot (at 6, not the one at 3) and the event after it")
    try context.requireEqual(history?.lastSequence, 7, "the last sequence")
  }

  /// A batch with a snapshot and no events.
  static let snapshotOnlyBatch = JournalCheck(
    name: "snapshot-only batch",
    rule: "a batch with a snapshot and no events stores the snapshot at its expected sequence, and is "
      + "refused like any batch when that expectation is stale"
  ) { context in
    let journal = try await context.newJournal()
    _ = try await journal.append([
      JournalBatch(systemID: "s", expectedSequence: 0, events: [payload("1"), payload("2")])
    ])
    let result = try await journal.append([
      JournalBatch(systemID: "s", expectedSequence: 2, events: [], snapshot: payload("state-2"))
    ])
    try context.requireEqual(result, [.appended(through: 2)], "the result of a snapshot-only batch")
    try context.requireEqual(
      try await journal.load("s"),
      JournalHistory(snapshot: JournalRecord(sequence: 2, payload: payload("state-2")), events: []),
      "the system after a snapshot-only batch")

    let stale = try await journal.append([
      JournalBatch(systemID: "s", expectedSequence: 1, events: [], snapshot: payload("stale"))
    ])
    try context.requireEqual(
      stale, [.refused(SequenceConflict(systemID: "s", expectedSequence: 1, storedSequence: 2))],
      "a stale snapshot-only batch")
    try context.requireEqual(
      try await journal.load("s")?.snapshot, JournalRecord(sequence: 2, payload: payload("state-2")),
      "the snapshot after a refused snapshot-only batch")

    _ = try await journal.append([JournalBatch(systemID: "s", expectedSequence: 2, events: [payload("3")])])
    try context.requireEqual(
      try await journal.load("s"),
      JournalHistory(
        snapshot: JournalRecord(sequence: 2, payload: payload("state-2")), events: records(["3"], from: 3)),
      "an event appended after a snapshot-only batch")
  }
}
