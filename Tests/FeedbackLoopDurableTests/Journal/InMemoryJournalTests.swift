import FeedbackLoopDurable
import Foundation
import Testing

@Suite("In-memory journal")
struct InMemoryJournalTests {
  static func payload(_ text: String) -> Data { Data(text.utf8) }
  static func payloads(_ texts: String...) -> [Data] { texts.map(payload) }

  @Test("G17 an append whose expected sequence is stale is refused with the stored sequence, and stores nothing")
  func staleAppendIsRefused() async throws {
    let journal = InMemoryJournal()
    let first = try await journal.append([
      JournalBatch(systemID: "a", expectedSequence: 0, events: Self.payloads("1", "2"))
    ])
    #expect(first == [.appended(through: 2)])
    let stale = try await journal.append([
      JournalBatch(systemID: "a", expectedSequence: 1, events: Self.payloads("x"))
    ])
    #expect(stale == [.refused(SequenceConflict(systemID: "a", expectedSequence: 1, storedSequence: 2))])
    let ahead = try await journal.append([
      JournalBatch(systemID: "a", expectedSequence: 5, events: Self.payloads("x"))
    ])
    #expect(ahead == [.refused(SequenceConflict(systemID: "a", expectedSequence: 5, storedSequence: 2))])
    let history = try await journal.load("a")
    #expect(history?.events.map(\.payload) == Self.payloads("1", "2"))
  }

  @Test("batches of several systems in one call: each is checked on its own, two of one system chain in order")
  func batchesOfOneCall() async throws {
    let journal = InMemoryJournal()
    let results = try await journal.append([
      JournalBatch(systemID: "a", expectedSequence: 0, events: Self.payloads("a1")),
      JournalBatch(systemID: "b", expectedSequence: 3, events: Self.payloads("b1")),
      JournalBatch(systemID: "a", expectedSequence: 1, events: Self.payloads("a2", "a3")),
      JournalBatch(systemID: "c", expectedSequence: 0, events: Self.payloads("c1")),
    ])
    #expect(
      results == [
        .appended(through: 1),
        .refused(SequenceConflict(systemID: "b", expectedSequence: 3, storedSequence: 0)),
        .appended(through: 3),
        .appended(through: 1),
      ])
    #expect(try await journal.load("a")?.events.map(\.sequence) == [1, 2, 3])
    #expect(try await journal.load("b") == nil)
    #expect(try await journal.systemIDs(after: nil, limit: 10) == ["a", "c"])
  }

  @Test("load gives the latest snapshot and only the events after it")
  func snapshots() async throws {
    let journal = InMemoryJournal()
    _ = try await journal.append([
      JournalBatch(
        systemID: "a", expectedSequence: 0, events: Self.payloads("1", "2"), snapshot: Self.payload("s2"))
    ])
    _ = try await journal.append([JournalBatch(systemID: "a", expectedSequence: 2, events: Self.payloads("3"))])
    var history = try #require(try await journal.load("a"))
    #expect(history.snapshot == JournalRecord(sequence: 2, payload: Self.payload("s2")))
    #expect(history.events == [JournalRecord(sequence: 3, payload: Self.payload("3"))])
    #expect(history.lastSequence == 3)
    // A snapshot alone is taken at the expected sequence.
    _ = try await journal.append([
      JournalBatch(systemID: "a", expectedSequence: 3, events: [], snapshot: Self.payload("s3"))
    ])
    history = try #require(try await journal.load("a"))
    #expect(history.snapshot == JournalRecord(sequence: 3, payload: Self.payload("s3")))
    #expect(history.events.isEmpty)
    #expect(history.lastSequence == 3)
  }

  @Test("a failing append throws and stores nothing of the call; the next one succeeds")
  func failNextAppend() async throws {
    let journal = InMemoryJournal()
    journal.failNextAppend()
    await #expect(throws: InMemoryJournal.InjectedFailure()) {
      try await journal.append([
        JournalBatch(systemID: "a", expectedSequence: 0, events: Self.payloads("1")),
        JournalBatch(systemID: "b", expectedSequence: 0, events: Self.payloads("1")),
      ])
    }
    #expect(try await journal.load("a") == nil)
    #expect(try await journal.systemIDs(after: nil, limit: 10).isEmpty)
    let results = try await journal.append([
      JournalBatch(systemID: "a", expectedSequence: 0, events: Self.payloads("1"))
    ])
    #expect(results == [.appended(through: 1)])
  }

  @Test("failAppends fails every append until stopFailing")
  func failAppends() async throws {
    let journal = InMemoryJournal()
    journal.failAppends()
    for _ in 0..<3 {
      await #expect(throws: InMemoryJournal.InjectedFailure.self) {
        try await journal.append([JournalBatch(systemID: "a", expectedSequence: 0, events: Self.payloads("1"))])
      }
    }
    journal.stopFailing()
    let results = try await journal.append([
      JournalBatch(systemID: "a", expectedSequence: 0, events: Self.payloads("1"))
    ])
    #expect(results == [.appended(through: 1)])
  }

  @Test("system ids are listed in ascending order, after an id, by pages; delete removes a system")
  func listingAndDeleting() async throws {
    let journal = InMemoryJournal()
    _ = try await journal.append(
      ["d", "b", "a", "c", "e"].map { JournalBatch(systemID: $0, expectedSequence: 0, events: Self.payloads("1")) })
    #expect(try await journal.systemIDs(after: nil, limit: 2) == ["a", "b"])
    #expect(try await journal.systemIDs(after: "b", limit: 2) == ["c", "d"])
    #expect(try await journal.systemIDs(after: "bb", limit: 10) == ["c", "d", "e"])
    #expect(try await journal.systemIDs(after: "e", limit: 2).isEmpty)
    #expect(try await journal.systemIDs(after: nil, limit: 0).isEmpty)
    try await journal.delete("c")
    try await journal.delete("unknown")
    #expect(try await journal.systemIDs(after: nil, limit: 10) == ["a", "b", "d", "e"])
    #expect(try await journal.load("c") == nil)
    let again = try await journal.append([
      JournalBatch(systemID: "c", expectedSequence: 0, events: Self.payloads("new"))
    ])
    #expect(again == [.appended(through: 1)])
  }

  @Test("appends from many tasks at once each land exactly once, without gaps")
  func concurrentWriters() async throws {
    let journal = InMemoryJournal()
    await withTaskGroup(of: Void.self) { group in
      for writer in 0..<8 {
        group.addTask {
          var expected: UInt64 = 0
          while expected < 50 {
            let result = try? await journal.append([
              JournalBatch(systemID: "shared", expectedSequence: expected, events: [Data([UInt8(writer)])])
            ])
            switch result?.first {
            case .appended(let through): expected = through
            case .refused(let conflict): expected = conflict.storedSequence
            case nil: return
            }
          }
        }
      }
    }
    let history = try #require(try await journal.load("shared"))
    #expect(history.events.map(\.sequence) == Array(1...history.lastSequence))
    #expect(history.lastSequence >= 50)
  }
}
