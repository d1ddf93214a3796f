import FeedbackLoopDurable
import Foundation

extension JournalCheck {
  /// Payloads of several megabytes come back byte for byte.
  static let largePayloads = JournalCheck(
    name: "large payloads",
    rule: "events and snapshots of several megabytes are stored and loaded byte for byte"
  ) { context in
    let journal = try await context.newJournal()
    let event = pseudorandomBytes(count: 6 * 1_024 * 1_024, seed: 1)
    let second = pseudorandomBytes(count: 2 * 1_024 * 1_024 + 7, seed: 2)
    let snapshot = pseudorandomBytes(count: 3 * 1_024 * 1_024 + 1, seed: 3)
    let result = try await journal.append([
      JournalBatch(systemID: "large", expectedSequence: 0, events: [event, second], snapshot: snapshot)
    ])
    try context.requireEqual(result, [.appended(through: 2)], "appending two events of 6 and 2 MB")
    let history = try await journal.load("large")
    try context.require(
      history?.snapshot == JournalRecord(sequence: 2, payload: snapshot),
      "the 3 MB snapshot came back as \(describe(history?.snapshot))")

    _ = try await journal.append([JournalBatch(systemID: "large", expectedSequence: 2, events: [event])])
    let events = try await journal.load("large")?.events ?? []
    try context.require(
      events == [JournalRecord(sequence: 3, payload: event)],
      "the 6 MB event after the snapshot came back as \(events.map(describe))")
  }

  /// Empty payloads are stored as empty, not dropped nor turned into
  /// something else.
  static let emptyPayloads = JournalCheck(
    name: "empty payloads",
    rule: "an empty event or snapshot is stored and loaded as an empty payload"
  ) { context in
    let journal = try await context.newJournal()
    let result = try await journal.append([
      JournalBatch(systemID: "empty", expectedSequence: 0, events: [Data(), payload("x"), Data()])
    ])
    try context.requireEqual(result, [.appended(through: 3)], "appending three events, two of them empty")
    try context.requireEqual(
      try await journal.load("empty"),
      JournalHistory(
        snapshot: nil,
        events: [
          JournalRecord(sequence: 1, payload: Data()), JournalRecord(sequence: 2, payload: payload("x")),
          JournalRecord(sequence: 3, payload: Data()),
        ]),
      "the loaded events")

    _ = try await journal.append([
      JournalBatch(systemID: "empty", expectedSequence: 3, events: [Data()], snapshot: Data())
    ])
    try context.requireEqual(
      try await journal.load("empty"),
      JournalHistory(snapshot: JournalRecord(sequence: 4, payload: Data()), events: []),
      "an empty snapshot")
  }
}

/// Bytes that no compression or deduplication shortens, the same for a seed.
func pseudorandomBytes(count: Int, seed: UInt64) -> Data {
  var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
  var bytes = [UInt8](repeating: 0, count: count)
  for index in bytes.indices {
    state ^= state << 13
    state ^= state >> 7
    state ^= state << 17
    bytes[index] = UInt8(truncatingIfNeeded: state)
  }
  return Data(bytes)
}

func describe(_ record: JournalRecord?) -> String {
  guard let record else { return "nil" }
  return "sequence \(record.sequence), \(record.payload.count) bytes"
}
