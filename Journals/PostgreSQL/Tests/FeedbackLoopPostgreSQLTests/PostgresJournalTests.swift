import FeedbackLoopDurable
import FeedbackLoopPostgreSQL
import Foundation
import Testing

@Suite("PostgreSQL journal")
struct PostgresJournalTests {
  private func bytes(_ text: String) -> Data { Data(text.utf8) }

  @Test("appends, loads the latest snapshot and the events after it, lists and deletes")
  func roundTrip() async throws {
    try await TestServer.shared.withJournal { journal in
      let first = try await journal.append([
        JournalBatch(systemID: "cart", expectedSequence: 0, events: [bytes("a"), bytes("b")])
      ])
      #expect(first == [.appended(through: 2)])
      let second = try await journal.append([
        JournalBatch(systemID: "cart", expectedSequence: 2, events: [bytes("c")], snapshot: bytes("abc")),
        JournalBatch(systemID: "cart", expectedSequence: 3, events: [bytes("d")]),
      ])
      #expect(second == [.appended(through: 3), .appended(through: 4)])
      let history = try #require(try await journal.load("cart"))
      #expect(history.snapshot == JournalRecord(sequence: 3, payload: bytes("abc")))
      #expect(history.events == [JournalRecord(sequence: 4, payload: bytes("d"))])
      #expect(try await journal.load("nobody") == nil)
      #expect(try await journal.systemIDs(after: nil, limit: 10) == ["cart"])
      try await journal.delete("cart")
      #expect(try await journal.load("cart") == nil)
    }
  }

  @Test("G17 a stale writer is refused with the stored sequence, and the call's other batches are appended")
  func staleWriterRefused() async throws {
    try await TestServer.shared.withJournal { journal in
      _ = try await journal.append([JournalBatch(systemID: "a", expectedSequence: 0, events: [bytes("1")])])
      let results = try await journal.append([
        JournalBatch(systemID: "a", expectedSequence: 0, events: [bytes("stale")]),
        JournalBatch(systemID: "b", expectedSequence: 0, events: [bytes("fresh")]),
        JournalBatch(systemID: "a", expectedSequence: 5, events: [bytes("future")]),
      ])
      #expect(
        results == [
          .refused(SequenceConflict(systemID: "a", expectedSequence: 0, storedSequence: 1)),
          .appended(through: 1),
          .refused(SequenceConflict(systemID: "a", expectedSequence: 5, storedSequence: 1)),
        ])
      #expect(try await journal.load("a")?.events.map(\.payload) == [bytes("1")])
      #expect(try await journal.load("b")?.events.map(\.payload) == [bytes("fresh")])
    }
  }

  @Test("G17 of many writers racing for one system's next sequence, exactly one appends, on separate connections")
  func racingWriters() async throws {
    try await TestServer.shared.withJournal { journal in
      for round in 0..<5 {
        let expected = UInt64(round)
        let results = try await withThrowingTaskGroup(of: JournalAppendResult.self) { group in
          for writer in 0..<8 {
            group.addTask {
              try await journal.append([
                JournalBatch(
                  systemID: "contended", expectedSequence: expected,
                  events: [Data("round \(round) writer \(writer)".utf8)])
              ])[0]
            }
          }
          return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.filter { $0 == .appended(through: expected + 1) }.count == 1)
        #expect(
          results.filter {
            $0
              == .refused(
                SequenceConflict(systemID: "contended", expectedSequence: expected, storedSequence: expected + 1))
          }.count == 7)
      }
      let history = try #require(try await journal.load("contended"))
      #expect(history.events.map(\.sequence) == [1, 2, 3, 4, 5])
    }
  }

  @Test("two batches of different systems in reverse orders at once do not deadlock")
  func crossedBatches() async throws {
    try await TestServer.shared.withJournal { journal in
      for round in 0..<10 {
        let expected = UInt64(round)
        async let one = journal.append([
          JournalBatch(systemID: "x", expectedSequence: expected, events: [Data("x".utf8)]),
          JournalBatch(systemID: "y", expectedSequence: expected, events: [Data("y".utf8)]),
        ])
        async let other = journal.append([
          JournalBatch(systemID: "y", expectedSequence: expected, events: [Data("y'".utf8)]),
          JournalBatch(systemID: "x", expectedSequence: expected, events: [Data("x'".utf8)]),
        ])
        let (a, b) = try await (one, other)
        // Whichever went first appended both; the other was refused both.
        #expect(Set([a, b].map { $0.allSatisfy { if case .appended = $0 { true } else { false } } }) == [true, false])
      }
    }
  }

  @Test("ids are listed in the order of Swift's String comparison, whatever the database's locale")
  func listingOrder() async throws {
    try await TestServer.shared.withJournal { journal in
      let ids = ["b", "B", "a", "é", "e", "Z", "a-1", "a_1", "10", "9", "日本"]
      _ = try await journal.append(ids.map { JournalBatch(systemID: $0, expectedSequence: 0, events: [Data()]) })
      var listed: [String] = []
      var after: String?
      while true {
        let page = try await journal.systemIDs(after: after, limit: 3)
        if page.isEmpty { break }
        listed += page
        after = page.last
      }
      #expect(listed == ids.sorted())
    }
  }

  @Test("a payload of several megabytes and an empty one are stored as they are")
  func payloads() async throws {
    try await TestServer.shared.withJournal { journal in
      let large = Data((0..<(6 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
      _ = try await journal.append([
        JournalBatch(systemID: "big", expectedSequence: 0, events: [large, Data()], snapshot: large)
      ])
      let history = try #require(try await journal.load("big"))
      #expect(history.snapshot?.payload == large)
      #expect(history.events.isEmpty)
      _ = try await journal.delete("big")
      _ = try await journal.append([JournalBatch(systemID: "big", expectedSequence: 0, events: [large, Data()])])
      #expect(try await journal.load("big")?.events.map(\.payload) == [large, Data()])
    }
  }

  @Test("two clients opening one database's journal at once both get its tables, and see each other's systems")
  func concurrentOpen() async throws {
    let prefix = "shared\(UInt32.random(in: 0...UInt32.max))_"
    async let one: [String] = TestServer.shared.withJournal(tablePrefix: prefix) { journal in
      _ = try await journal.append([JournalBatch(systemID: "one", expectedSequence: 0, events: [Data()])])
      return []
    }
    async let other: [String] = TestServer.shared.withJournal(tablePrefix: prefix) { journal in
      _ = try await journal.append([JournalBatch(systemID: "other", expectedSequence: 0, events: [Data()])])
      return []
    }
    _ = try await (one, other)
    let listed = try await TestServer.shared.withJournal(tablePrefix: prefix) { journal in
      try await journal.systemIDs(after: nil, limit: 10)
    }
    #expect(listed == ["one", "other"])
  }

  @Test("G16 a server stopped while an append waits: the append completes once it is back, nothing acknowledged lost")
  func serverStoppedAndResumed() async throws {
    let server = try TestServer.start()
    // A bound well above the server's restart, which a loaded machine slows.
    try await server.withJournal(operationTimeout: .seconds(60)) { journal in
      #expect(
        try await journal.append([JournalBatch(systemID: "s", expectedSequence: 0, events: [Data("1".utf8)])])
          == [.appended(through: 1)])
      try server.stop()
      // The pool finds its connection closed and connects again, in a loop
      // with a backoff, while the append waits; the server comes back
      // meanwhile.
      async let waiting = journal.append([
        JournalBatch(systemID: "s", expectedSequence: 1, events: [Data("2".utf8)])
      ])
      try server.resume()
      let appended = try await waiting
      #expect(appended == [.appended(through: 2)])
      #expect(try await journal.load("s")?.events.map(\.payload) == [Data("1".utf8), Data("2".utf8)])
    }
    try server.stop()
  }

  @Test("a failed append names its operation and the server's answer, and stores nothing of its call")
  func failedAppend() async throws {
    let server = TestServer.shared
    try await server.withJournal(tablePrefix: "dropped_") { journal in
      _ = try await journal.append([JournalBatch(systemID: "a", expectedSequence: 0, events: [Data("1".utf8)])])
      // Someone drops the snapshots' table: the batch's head and events are
      // written, then its snapshot fails, and the transaction rolls back.
      try TestServer.script("sql", server.directory, "DROP TABLE dropped_snapshots")
      let error = await #expect(throws: PostgresJournalError.self) {
        try await journal.append([
          JournalBatch(systemID: "b", expectedSequence: 0, events: [Data("1".utf8)]),
          JournalBatch(systemID: "a", expectedSequence: 1, events: [Data("2".utf8)], snapshot: Data("12".utf8)),
        ])
      }
      #expect(error?.description.hasPrefix("The PostgreSQL journal could not append 2 batches:") == true)
      #expect(error?.reason.contains("dropped_snapshots") == true)
    }
    try await server.withJournal(tablePrefix: "dropped_") { journal in
      // Opening again makes the missing table; nothing of the failed call is there.
      let a = try await journal.load("a")
      let b = try await journal.load("b")
      #expect(a?.events.map(\.sequence) == [1])
      #expect(b == nil)
    }
  }

  @Test("tables made before epochs open: their systems load, are at epoch 0 until claimed, then fence their old writer")
  func tablesMadeBeforeEpochs() async throws {
    let server = TestServer.shared
    let prefix = TestServer.newTablePrefix()
    // The tables as the version before epochs made them, with one system.
    try TestServer.script(
      "sql", server.directory,
      """
      CREATE TABLE \(prefix)heads (system_id text COLLATE "C" PRIMARY KEY, last_sequence bigint NOT NULL);
      CREATE TABLE \(prefix)events (
        system_id text COLLATE "C" NOT NULL, sequence bigint NOT NULL, payload bytea NOT NULL,
        PRIMARY KEY (system_id, sequence));
      CREATE TABLE \(prefix)snapshots (
        system_id text COLLATE "C" PRIMARY KEY, sequence bigint NOT NULL, payload bytea NOT NULL);
      INSERT INTO \(prefix)heads VALUES ('old', 2);
      INSERT INTO \(prefix)events VALUES ('old', 1, '\\x31'), ('old', 2, '\\x32');
      """)
    try await server.withJournal(tablePrefix: prefix) { journal in
      #expect(try await journal.load("old")?.events.map(\.payload) == [bytes("1"), bytes("2")])
      #expect(try await journal.systemIDs(after: nil, limit: 10) == ["old"])
      // An old writer (epoch 0) goes on until the system is claimed.
      #expect(
        try await journal.append([JournalBatch(systemID: "old", expectedSequence: 2, events: [bytes("3")])])
          == [.appended(through: 3)])
      let claim = try await journal.claim("old")
      #expect(claim.epoch == 1)
      #expect(claim.history?.lastSequence == 3)
      #expect(
        try await journal.append([
          JournalBatch(systemID: "old", expectedSequence: 3, events: [bytes("stale")]),
          JournalBatch(systemID: "old", epoch: 1, expectedSequence: 3, events: [bytes("4")]),
        ])
          == [
            .refused(
              SequenceConflict(
                systemID: "old", expectedSequence: 3, storedSequence: 3, writerEpoch: 0, storedEpoch: 1)),
            .appended(through: 4),
          ])
    }
    // Opened again: nothing to alter, the epoch is kept.
    try await server.withJournal(tablePrefix: prefix) { journal in
      let claim = try await journal.claim("old")
      #expect(claim.epoch == 2)
    }
  }

  @Test("G17 a claim on another connection while the owner appends: the claim's history has every acknowledged event")
  func claimOnAnotherConnection() async throws {
    try await TestServer.shared.withJournal { journal in
      var epoch = try await journal.claim("s").epoch
      var acknowledged: UInt64 = 0
      for round in 0..<10 {
        async let claim = journal.claim("s")
        var expected = acknowledged
        for attempt in 0... {
          // A journal without the fence appends forever: the claim never stops the owner.
          try #require(attempt < 10_000, "round \(round): the owner was never refused after the claim")
          let result = try await journal.append([
            JournalBatch(systemID: "s", epoch: epoch, expectedSequence: expected, events: [bytes("\(round)")])
          ])
          guard case .appended(let through) = result.first else { break }
          expected = through
        }
        let claimed = try await claim
        #expect(claimed.history?.lastSequence ?? 0 == expected, "round \(round)")
        #expect(claimed.epoch == epoch + 1)
        epoch = claimed.epoch
        acknowledged = expected
      }
    }
  }
}
