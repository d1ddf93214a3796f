import FeedbackLoopDurable
import Foundation

extension JournalCheck {
  /// Many systems, listed in ascending order, page by page.
  static let manySystemsAndPaging = JournalCheck(
    name: "many systems and paging",
    rule: "systemIDs lists the stored ids in ascending order after the given id, at most limit of them"
  ) { context in
    let journal = try await context.newJournal()
    // Ids of different lengths and cases, so that an order by length, by
    // insertion or ignoring case shows.
    var ids = (0..<240).map { "system-\($0)" } + ["A", "B", "a", "b", "aa", "Z9", "z10"]
    var generator = SeededGenerator(seed: 7)
    ids.shuffle(using: &generator)
    for chunk in stride(from: 0, to: ids.count, by: 50) {
      let batches = ids[chunk..<min(chunk + 50, ids.count)].map {
        JournalBatch(systemID: $0, expectedSequence: 0, events: [payload($0)])
      }
      _ = try await journal.append(batches)
    }
    let sorted = ids.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }

    var listed: [String] = []
    var cursor: String? = nil
    while true {
      let page = try await journal.systemIDs(after: cursor, limit: 13)
      try context.require(page.count <= 13, "a page of limit 13 has \(page.count) ids")
      if page.isEmpty { break }
      listed += page
      cursor = page.last
      try context.require(listed.count <= ids.count, "paging lists more ids than are stored: \(listed.count)")
    }
    try context.requireEqual(listed, sorted, "the ids listed page by page (13 at a time)")

    // After an id that is not stored: the next stored one.
    try context.requireEqual(
      try await journal.systemIDs(after: "system-1000", limit: 2), ["system-101", "system-102"],
      "the 2 ids after an id that is not stored")
    try context.requireEqual(try await journal.systemIDs(after: sorted.last, limit: 5), [], "the ids after the last")
    try context.requireEqual(try await journal.systemIDs(after: nil, limit: 0), [], "a page of limit 0")
  }

  /// Delete removes a system's events and snapshot, nothing else.
  static let delete = JournalCheck(
    name: "delete",
    rule: "delete removes everything stored for one system (its sequence starts again at 1), touches no "
      + "other, and deleting an unknown id does nothing"
  ) { context in
    let journal = try await context.newJournal()
    _ = try await journal.append([
      JournalBatch(
        systemID: "gone", expectedSequence: 0, events: [payload("1"), payload("2")], snapshot: payload("s")),
      JournalBatch(systemID: "kept", expectedSequence: 0, events: [payload("k1")]),
    ])
    _ = try await journal.append([JournalBatch(systemID: "gone", expectedSequence: 2, events: [payload("3")])])
    try await journal.delete("gone")
    try context.requireEqual(try await journal.load("gone"), nil, "a deleted system")
    try context.requireEqual(try await journal.systemIDs(after: nil, limit: 10), ["kept"], "the listed ids")
    try context.requireEqual(
      try await journal.load("kept"), JournalHistory(snapshot: nil, events: records(["k1"])), "the other system")

    try await journal.delete("never-stored")
    let again = try await journal.append([
      JournalBatch(systemID: "gone", expectedSequence: 3, events: [payload("stale")]),
      JournalBatch(systemID: "gone", expectedSequence: 0, events: [payload("new")]),
    ])
    try context.requireEqual(
      again,
      [.refused(SequenceConflict(systemID: "gone", expectedSequence: 3, storedSequence: 0)), .appended(through: 1)],
      "appending to a deleted system")
    try context.requireEqual(
      try await journal.load("gone"), JournalHistory(snapshot: nil, events: records(["new"])),
      "a deleted system appended to again (no old snapshot or event)")
  }

  /// An id with nothing stored loads nil.
  static let unknownSystem = JournalCheck(
    name: "unknown id",
    rule: "load returns nil for an id with nothing stored"
  ) { context in
    let journal = try await context.newJournal()
    try context.requireEqual(try await journal.load("unknown"), nil, "an id of an empty journal")
    try context.requireEqual(try await journal.systemIDs(after: nil, limit: 10), [], "the ids of an empty journal")
    _ = try await journal.append([JournalBatch(systemID: "known", expectedSequence: 0, events: [payload("1")])])
    try context.requireEqual(try await journal.load("unknown"), nil, "an id beside a stored one")
    try context.requireEqual(try await journal.load("know"), nil, "a prefix of a stored id")
    try context.requireEqual(try await journal.load(""), nil, "the empty id")
  }
}

/// A random generator that gives the same numbers for a seed (SplitMix64).
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
