import FeedbackLoopDurable
import Foundation

extension JournalCheck {
  /// Stale and future expectations are refused with the stored sequence, and
  /// store nothing; the other batches of the same call are still appended.
  static let conditionalAppend = JournalCheck(
    name: "conditional append",
    rule: "a batch whose expected sequence is not the stored one is refused with the stored sequence "
      + "and stores nothing; the other batches of the call are still appended"
  ) { context in
    let journal = try await context.newJournal()
    let first = try await journal.append([
      JournalBatch(systemID: "a", expectedSequence: 0, events: [payload("a1"), payload("a2")])
    ])
    try context.requireEqual(first, [.appended(through: 2)], "appending 2 events to a new system")

    let results = try await journal.append([
      JournalBatch(systemID: "a", expectedSequence: 1, events: [payload("stale")], snapshot: payload("stale")),
      JournalBatch(systemID: "b", expectedSequence: 0, events: [payload("b1")]),
      JournalBatch(systemID: "a", expectedSequence: 5, events: [payload("future")], snapshot: payload("future")),
      JournalBatch(systemID: "c", expectedSequence: 3, events: [payload("c4")]),
      JournalBatch(systemID: "d", expectedSequence: 0, events: [payload("d1"), payload("d2")]),
    ])
    try context.requireEqual(
      results,
      [
        .refused(SequenceConflict(systemID: "a", expectedSequence: 1, storedSequence: 2)),
        .appended(through: 1),
        .refused(SequenceConflict(systemID: "a", expectedSequence: 5, storedSequence: 2)),
        .refused(SequenceConflict(systemID: "c", expectedSequence: 3, storedSequence: 0)),
        .appended(through: 2),
      ],
      "the results of a call with a stale, a future and an unknown system's expectation beside good batches")

    try context.requireEqual(
      try await journal.load("a"),
      JournalHistory(snapshot: nil, events: records(["a1", "a2"])),
      "system a after its refused batches")
    try context.requireEqual(
      try await journal.load("b"), JournalHistory(snapshot: nil, events: records(["b1"])), "system b")
    try context.requireEqual(try await journal.load("c"), nil, "system c, whose only batch was refused")
    try context.requireEqual(
      try await journal.load("d"), JournalHistory(snapshot: nil, events: records(["d1", "d2"])), "system d")
    try context.requireEqual(
      try await journal.systemIDs(after: nil, limit: 10), ["a", "b", "d"],
      "the listed systems (c's refused batch stored nothing)")
  }

  /// Events come back in the order appended, numbered from 1 without gaps.
  static let ordering = JournalCheck(
    name: "ordering",
    rule: "a system's events are loaded in the order they were appended, numbered from 1 without gaps"
  ) { context in
    let journal = try await context.newJournal()
    // Payloads that sort in the opposite order to their sequence, so that a
    // journal ordering by payload (or by anything but the sequence) shows.
    let names = (1...30).map { String(format: "%03d", 100 - $0) }
    var expected: UInt64 = 0
    for chunk in stride(from: 0, to: names.count, by: 7) {
      let batch = names[chunk..<min(chunk + 7, names.count)].map(payload)
      let result = try await journal.append([
        JournalBatch(systemID: "ordered", expectedSequence: expected, events: batch),
        JournalBatch(systemID: "other-\(chunk)", expectedSequence: 0, events: [payload("x")]),
      ])
      let through = expected + UInt64(batch.count)
      try context.requireEqual(
        result[0], .appended(through: through), "appending \(batch.count) events after \(expected)")
      expected = through
    }
    let history = try await journal.load("ordered")
    try context.requireEqual(history?.events, records(names), "the loaded events")
    try context.requireEqual(history?.lastSequence, 30, "the last sequence")
  }

  /// Two batches of one system in one call are applied in order.
  static let twoBatchesOfOneSystem = JournalCheck(
    name: "two batches of one system in one call",
    rule: "two batches of one system in one call are applied in order, the second expecting what the "
      + "first appended"
  ) { context in
    let journal = try await context.newJournal()
    let chained = try await journal.append([
      JournalBatch(systemID: "s", expectedSequence: 0, events: [payload("1"), payload("2")]),
      JournalBatch(systemID: "s", expectedSequence: 2, events: [payload("3"), payload("4"), payload("5")]),
    ])
    try context.requireEqual(
      chained, [.appended(through: 2), .appended(through: 5)], "two chained batches in one call")

    let repeated = try await journal.append([
      JournalBatch(systemID: "s", expectedSequence: 5, events: [payload("6")]),
      JournalBatch(systemID: "s", expectedSequence: 5, events: [payload("duplicate")]),
    ])
    try context.requireEqual(
      repeated,
      [
        .appended(through: 6),
        .refused(SequenceConflict(systemID: "s", expectedSequence: 5, storedSequence: 6)),
      ],
      "two batches of one system expecting the same sequence in one call")
    try context.requireEqual(
      try await journal.load("s")?.events, records(["1", "2", "3", "4", "5", "6"]), "the loaded events")
  }

  /// Concurrent writers of one system: one wins per expected sequence.
  static let concurrentWriters = JournalCheck(
    name: "concurrent writers",
    rule: "of concurrent writers of one system expecting the same sequence exactly one is appended and "
      + "the others are refused: no gap, no duplicate"
  ) { context in
    let journal = try await context.newJournal()
    let writers = 6
    let winsPerWriter = 8
    // Each writer appends until it has won `winsPerWriter` times, taking the
    // stored sequence from each refusal as its next expectation.
    let wins = try await withThrowingTaskGroup(of: [(range: ClosedRange<UInt64>, tag: String)].self) { group in
      for writer in 0..<writers {
        group.addTask {
          var won: [(range: ClosedRange<UInt64>, tag: String)] = []
          var expected: UInt64 = 0
          var attempts = 0
          while won.count < winsPerWriter {
            attempts += 1
            if attempts > 10_000 {
              throw context.fail("writer \(writer) was refused 10,000 times: no writer makes progress")
            }
            let tag = "w\(writer)-\(won.count)"
            let count = writer % 3 + 1
            let events = (0..<count).map { payload("\(tag)-\($0)") }
            let results = try await journal.append([
              JournalBatch(systemID: "contended", expectedSequence: expected, events: events)
            ])
            switch results.first {
            case .appended(let through)?:
              try context.requireEqual(
                through, expected + UInt64(count), "writer \(writer)'s acknowledged last sequence")
              won.append((expected + 1...through, tag))
              expected = through
            case .refused(let conflict)?:
              try context.require(
                conflict.storedSequence > expected && conflict.expectedSequence == expected
                  && conflict.systemID == "contended",
                "writer \(writer) expecting \(expected) was refused with \(conflict), but the stored "
                  + "sequence only grows and differs from the expectation when refused")
              expected = conflict.storedSequence
            case nil:
              throw context.fail("an append of one batch returned no result")
            }
          }
          return won
        }
      }
      var all: [(range: ClosedRange<UInt64>, tag: String)] = []
      for try await won in group { all += won }
      return all
    }
    let history = try await journal.load("contended")
    let events = history?.events ?? []
    let total = wins.reduce(0) { $0 + $1.range.count }
    try context.requireEqual(
      events.map(\.sequence), Array(1...UInt64(total)),
      "the stored sequences after \(wins.count) acknowledged batches of \(total) events")
    for win in wins {
      for (offset, sequence) in win.range.enumerated() {
        try context.requireEqual(
          events[Int(sequence) - 1].payload, payload("\(win.tag)-\(offset)"),
          "the event stored at \(sequence), acknowledged to batch \(win.tag)")
      }
    }
  }
}

func payload(_ text: String) -> Data {
  Data(text.utf8)
}

func records(_ texts: [String], from first: UInt64 = 1) -> [JournalRecord] {
  texts.enumerated().map { JournalRecord(sequence: first + UInt64($0.offset), payload: payload($0.element)) }
}
