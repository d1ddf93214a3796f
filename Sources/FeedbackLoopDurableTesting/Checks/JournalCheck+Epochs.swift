import FeedbackLoopDurable
import Foundation

extension JournalCheck {
  /// A claim moves the epoch on; a batch of another epoch is refused even
  /// when its expected sequence is the stored one; a load claims nothing.
  static let staleEpoch = JournalCheck(
    name: "stale epoch",
    rule: "a claim moves the id's epoch on by one and returns the history; a batch whose epoch is not the "
      + "current one is refused with both epochs, even when its expected sequence is the stored one; a load "
      + "claims nothing"
  ) { context in
    let journal = try await context.newJournal()
    let first = try await journal.claim("a")
    try context.requireEqual(first, JournalClaim(epoch: 1, history: nil), "the first claim of a new id")
    try context.requireEqual(
      try await journal.append([
        JournalBatch(systemID: "a", epoch: 1, expectedSequence: 0, events: [payload("a1"), payload("a2")])
      ]), [.appended(through: 2)], "the owner's append at epoch 1")
    _ = try await journal.load("a")
    try context.requireEqual(
      try await journal.append([JournalBatch(systemID: "a", epoch: 1, expectedSequence: 2, events: [payload("a3")])]),
      [.appended(through: 3)], "the owner's append after a load (a load claims nothing)")

    let second = try await journal.claim("a")
    try context.requireEqual(
      second, JournalClaim(epoch: 2, history: JournalHistory(snapshot: nil, events: records(["a1", "a2", "a3"]))),
      "the second claim")
    let results = try await journal.append([
      JournalBatch(systemID: "a", epoch: 1, expectedSequence: 3, events: [payload("stale")], snapshot: payload("s")),
      JournalBatch(systemID: "a", epoch: 0, expectedSequence: 3, events: [payload("unclaimed")]),
      JournalBatch(systemID: "a", epoch: 3, expectedSequence: 3, events: [payload("future")]),
      JournalBatch(systemID: "b", expectedSequence: 0, events: [payload("b1")]),
      JournalBatch(systemID: "a", epoch: 2, expectedSequence: 3, events: [payload("a4")]),
    ])
    try context.requireEqual(
      results,
      [
        .refused(
          SequenceConflict(systemID: "a", expectedSequence: 3, storedSequence: 3, writerEpoch: 1, storedEpoch: 2)),
        .refused(
          SequenceConflict(systemID: "a", expectedSequence: 3, storedSequence: 3, writerEpoch: 0, storedEpoch: 2)),
        .refused(
          SequenceConflict(systemID: "a", expectedSequence: 3, storedSequence: 3, writerEpoch: 3, storedEpoch: 2)),
        .appended(through: 1),
        .appended(through: 4),
      ],
      "a call with a stale, an unclaimed and a future epoch, each expecting the stored sequence, beside good batches")
    try context.requireEqual(
      try await journal.load("a"), JournalHistory(snapshot: nil, events: records(["a1", "a2", "a3", "a4"])),
      "system a after its refused batches")
  }

  /// Two owners claimed one after the other: the older is refused, though
  /// it appends first and expects the stored sequence.
  static let twoClaimers = JournalCheck(
    name: "two claimers",
    rule: "of two claimers of one id, the older is refused from the second claim on, even when it appends "
      + "first, expecting the stored sequence"
  ) { context in
    let journal = try await context.newJournal()
    let older = try await journal.claim("s")
    let newer = try await journal.claim("s")
    try context.require(newer.epoch > older.epoch, "the second claim's epoch \(newer.epoch) after \(older.epoch)")
    try context.requireEqual(
      try await journal.append([
        JournalBatch(systemID: "s", epoch: older.epoch, expectedSequence: 0, events: [payload("older")])
      ]),
      [
        .refused(
          SequenceConflict(
            systemID: "s", expectedSequence: 0, storedSequence: 0, writerEpoch: older.epoch,
            storedEpoch: newer.epoch))
      ], "the older claimer's first append")
    try context.requireEqual(try await journal.load("s"), nil, "the id after the older claimer's refused append")
    try context.requireEqual(
      try await journal.append([
        JournalBatch(systemID: "s", epoch: newer.epoch, expectedSequence: 0, events: [payload("newer")])
      ]), [.appended(through: 1)], "the newer claimer's append")
    try context.requireEqual(
      try await journal.load("s"), JournalHistory(snapshot: nil, events: records(["newer"])), "the stored events")
  }

  /// A claim of an id with nothing stored shows nowhere; a delete keeps the
  /// epoch, so a claim after it never reuses an old one.
  static let claimAfterDelete = JournalCheck(
    name: "claim after delete",
    rule: "a claim of an id with nothing stored is neither loaded nor listed; delete keeps the id's epoch, so "
      + "a claim after it moves on from it and an owner from before the delete is refused"
  ) { context in
    let journal = try await context.newJournal()
    let empty = try await journal.claim("claimed-only")
    try context.requireEqual(empty, JournalClaim(epoch: 1, history: nil), "a claim of an unknown id")
    try context.requireEqual(try await journal.load("claimed-only"), nil, "a claimed id with nothing stored")
    try context.requireEqual(try await journal.systemIDs(after: nil, limit: 10), [], "the listed ids")

    let before = try await journal.claim("gone")
    _ = try await journal.append([
      JournalBatch(systemID: "gone", epoch: before.epoch, expectedSequence: 0, events: [payload("1")])
    ])
    let stale = try await journal.claim("gone")
    try await journal.delete("gone")
    try context.requireEqual(try await journal.load("gone"), nil, "a deleted system")
    let after = try await journal.claim("gone")
    try context.require(
      after.epoch > stale.epoch, "the claim after the delete has epoch \(after.epoch), not after \(stale.epoch)")
    try context.requireEqual(after.history, nil, "the history the claim after the delete returns")
    let results = try await journal.append([
      JournalBatch(systemID: "gone", epoch: stale.epoch, expectedSequence: 0, events: [payload("stale")]),
      JournalBatch(systemID: "gone", epoch: after.epoch, expectedSequence: 0, events: [payload("new")]),
    ])
    try context.requireEqual(
      results,
      [
        .refused(
          SequenceConflict(
            systemID: "gone", expectedSequence: 0, storedSequence: 0, writerEpoch: stale.epoch,
            storedEpoch: after.epoch)),
        .appended(through: 1),
      ], "an owner from before the delete, then the new owner, both expecting 0")
    try context.requireEqual(
      try await journal.load("gone"), JournalHistory(snapshot: nil, events: records(["new"])), "the re-created id")
    try context.requireEqual(
      try await journal.systemIDs(after: nil, limit: 10), ["gone"], "the listed ids after the re-creation")
  }

  /// A claim racing an owner's appends: every append of the old epoch that
  /// was acknowledged is in the claim's history, and none after it is.
  static let concurrentClaimAndAppend = JournalCheck(
    name: "concurrent claim and append",
    rule: "a claim racing an owner's appends returns exactly the events acknowledged to that owner, which is "
      + "refused from then on: nothing is appended to an old epoch after a claim returned"
  ) { context in
    let journal = try await context.newJournal()
    var owner = try await journal.claim("raced")
    var acknowledged: [String] = []
    for round in 0..<12 {
      let epoch = owner.epoch
      let start = owner.history?.lastSequence ?? 0
      let (claim, appended) = try await withThrowingTaskGroup(of: ClaimRace.self) { group in
        group.addTask {
          // The owner appends one event at a time until it is refused.
          var appended: [String] = []
          var expected = start
          while appended.count < 10_000 {
            let tag = "r\(round)-\(appended.count)"
            let result = try await journal.append([
              JournalBatch(systemID: "raced", epoch: epoch, expectedSequence: expected, events: [payload(tag)])
            ])
            guard case .appended(let through) = result.first else { break }
            appended.append(tag)
            expected = through
            await Task.yield()
          }
          return .appended(appended)
        }
        group.addTask {
          for _ in 0..<(round % 4) * 3 { await Task.yield() }
          return .claimed(try await journal.claim("raced"))
        }
        var claim: JournalClaim?
        var appended: [String] = []
        for try await outcome in group {
          switch outcome {
          case .claimed(let value): claim = value
          case .appended(let value): appended = value
          }
        }
        return (claim!, appended)
      }
      acknowledged += appended
      try context.requireEqual(
        claim.history?.events.map(\.payload) ?? [], acknowledged.map(payload),
        "round \(round): the history the racing claim returned, against the events acknowledged before it")
      try context.requireEqual(claim.epoch, epoch + 1, "round \(round): the racing claim's epoch")
      owner = claim
    }
  }
}

/// What each task of the concurrent claim check returns.
private enum ClaimRace: Sendable {
  case claimed(JournalClaim)
  case appended([String])
}
