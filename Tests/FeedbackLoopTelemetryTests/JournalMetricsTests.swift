import FeedbackLoop
import FeedbackLoopDurable
import FeedbackLoopTelemetry
import FeedbackLoopTesting
import Foundation
import MetricsTestKit
import Testing

@Suite("Journal metrics", .timeLimit(.minutes(1)))
struct JournalMetricsTests {
  typealias Names = MetricNames
  typealias Reason = MetricNames.RefusedAppendReason

  static let carts = [(Names.system, "carts")]
  static func refused(_ reason: String) -> [(String, String)] { carts + [(Names.reason, reason)] }

  static func event(_ text: String) -> Data { Data(text.utf8) }

  /// An in-memory journal whose appends take 4 ms on a test clock, wrapped
  /// with metrics read on that clock.
  struct Measured {
    let memory = InMemoryJournal()
    let clock = TestClock()
    let metrics = TestMetrics()
    let journal: MetricsJournal<ClockedJournal<InMemoryJournal>>

    init() {
      journal = ClockedJournal(base: memory, clock: clock, appendTakes: .milliseconds(4))
        .withMetrics(label: "carts", factory: metrics, clock: clock)
    }

    func refusedCount(_ reason: String) throws -> Int64 {
      try metrics.expectCounter(Names.journalAppendsRefused, JournalMetricsTests.refused(reason)).totalValue
    }
  }

  @Test("each append records its latency on the injected clock and its batch size, all its batches together")
  func latencyAndBatchSize() async throws {
    let measured = Measured()
    let results = try await measured.journal.append([
      JournalBatch(systemID: "cart-1", expectedSequence: 0, events: [Self.event("a"), Self.event("b")]),
      JournalBatch(systemID: "cart-2", expectedSequence: 0, events: [Self.event("c")]),
    ])
    #expect(results == [.appended(through: 2), .appended(through: 1)])
    _ = try await measured.journal.append([
      JournalBatch(systemID: "cart-1", expectedSequence: 2, events: [Self.event("d")])
    ])
    #expect(try measured.metrics.expectTimer(Names.journalAppendDuration, Self.carts).values == [4_000_000, 4_000_000])
    #expect(try measured.metrics.expectRecorder(Names.journalAppendEvents, Self.carts).values == [3, 1])
    for reason in [Reason.fenced, Reason.staleSequence, Reason.failed] {
      #expect(try measured.refusedCount(reason) == 0)
    }
  }

  @Test(
    "G17 a batch of a stale epoch counts as fenced, one of a stale sequence as stale_sequence; the results pass through"
  )
  func refusalsByReason() async throws {
    let measured = Measured()
    let earlier = try await measured.journal.claim("cart-1")
    let owner = try await measured.journal.claim("cart-1")
    #expect((earlier.epoch, owner.epoch) == (1, 2))
    _ = try await measured.journal.claim("cart-3")
    _ = try await measured.journal.claim("cart-3")
    let results = try await measured.journal.append([
      // The earlier owners, fenced off by the second claims.
      JournalBatch(systemID: "cart-1", epoch: earlier.epoch, expectedSequence: 0, events: [Self.event("a")]),
      JournalBatch(systemID: "cart-3", epoch: 1, expectedSequence: 0, events: [Self.event("e")]),
      // The owner, which believes two events are stored.
      JournalBatch(systemID: "cart-1", epoch: owner.epoch, expectedSequence: 2, events: [Self.event("b")]),
      // An id never claimed, appended as expected.
      JournalBatch(systemID: "cart-2", expectedSequence: 0, events: [Self.event("c")]),
    ])
    #expect(results.count == 4)
    guard case .refused(let fenced) = results[0], case .refused(let stale) = results[2] else {
      Issue.record("expected refusals, got \(results)")
      return
    }
    #expect(fenced.isFenced && !stale.isFenced)
    #expect(results[3] == .appended(through: 1))
    #expect(try measured.refusedCount(Reason.fenced) == 2)
    #expect(try measured.refusedCount(Reason.staleSequence) == 1)
    #expect(try measured.refusedCount(Reason.failed) == 0)
    #expect(try measured.metrics.expectRecorder(Names.journalAppendEvents, Self.carts).values == [4])
  }

  @Test("an append that throws counts each of its batches as failed, records its latency, and rethrows the error")
  func thrownAppend() async throws {
    let measured = Measured()
    measured.memory.failNextAppend()
    await #expect(throws: InMemoryJournal.InjectedFailure.self) {
      try await measured.journal.append([
        JournalBatch(systemID: "cart-1", expectedSequence: 0, events: [Self.event("a")]),
        JournalBatch(systemID: "cart-2", expectedSequence: 0, events: [Self.event("b")]),
      ])
    }
    #expect(try measured.refusedCount(Reason.failed) == 2)
    #expect(try measured.refusedCount(Reason.fenced) == 0)
    #expect(try measured.metrics.expectTimer(Names.journalAppendDuration, Self.carts).values == [4_000_000])
    #expect(try await measured.memory.load("cart-1") == nil)
  }

  @Test("everything but append is the wrapped journal's, and a full-history journal stays one")
  func forwarding() async throws {
    let memory = InMemoryJournal()
    let metrics = TestMetrics()
    let journal = memory.withMetrics(label: "carts", factory: metrics)
    #expect(try await journal.claim("cart-1").epoch == 1)
    _ = try await journal.append([
      JournalBatch(
        systemID: "cart-1", epoch: 1, expectedSequence: 0, events: [Self.event("a")], snapshot: Self.event("s"))
    ])
    #expect(try await journal.load("cart-1")?.events.map(\.sequence) == [])
    #expect(try await journal.systemIDs(after: nil, limit: 10) == ["cart-1"])
    let history: any FullHistoryJournal = journal
    #expect(try await history.events(of: "cart-1", after: 0, limit: 10).map(\.payload) == [Self.event("a")])
    #expect(try await history.latestSnapshot(of: "cart-1")?.payload == Self.event("s"))
    try await journal.delete("cart-1")
    #expect(try await memory.load("cart-1") == nil)
    #expect(metrics.timers.count == 1)
  }
}

/// A durable system over a measured journal: what an app sees.
@Suite("Journal metrics of a durable system", .timeLimit(.minutes(1)))
struct DurableJournalMetricsTests {
  typealias Names = MetricNames
  typealias Reason = MetricNames.RefusedAppendReason

  struct Tally: Codable, Sendable, Equatable {
    var total = 0
    static func reduce(_ state: inout Tally, _ amount: Int) { state.total += amount }
  }

  let measured = JournalMetricsTests.Measured()
  /// Where a stopped system's error goes, instead of the test's output.
  let logs = LogRecorder()

  func restore(writer: JournalWriter) async throws -> DurableSystem<Tally, Int> {
    try await DurableSystem.restore(
      id: "cart-42", writer: writer, initial: Tally(), reduce: Tally.reduce, snapshots: .never,
      environment: SystemEnvironment(logger: logs.logger))
  }

  @Test("each acknowledged event is one measured append of one event")
  func acknowledgedEvents() async throws {
    let cart = try await restore(writer: JournalWriter(journal: measured.journal))
    try await cart.sendDurably(5)
    try await cart.sendDurably(7)
    #expect(cart.state.total == 12)
    let carts = JournalMetricsTests.carts
    #expect(try measured.metrics.expectRecorder(Names.journalAppendEvents, carts).values == [1, 1])
    #expect(try measured.metrics.expectTimer(Names.journalAppendDuration, carts).values == [4_000_000, 4_000_000])
    #expect(try measured.refusedCount(Reason.fenced) == 0)
    cart.stop()
  }

  @Test("G17 an owner fenced off by a second restore: its refused append counts as fenced")
  func fencedOwner() async throws {
    let earlier = try await restore(writer: JournalWriter(journal: measured.journal))
    let owner = try await restore(writer: JournalWriter(journal: measured.journal))
    await #expect(throws: DurableSystemError.self) { try await earlier.sendDurably(1) }
    #expect(earlier.isStopped)
    try await owner.sendDurably(2)
    #expect(try measured.refusedCount(Reason.fenced) == 1)
    #expect(try measured.refusedCount(Reason.staleSequence) == 0)
    owner.stop()
  }

  @Test("a journal that throws: the failed append counts once, as failed")
  func failingJournal() async throws {
    let cart = try await restore(writer: JournalWriter(journal: measured.journal))
    measured.memory.failNextAppend()
    await #expect(throws: DurableSystemError.self) { try await cart.sendDurably(1) }
    #expect(try measured.refusedCount(Reason.failed) == 1)
    #expect(try measured.refusedCount(Reason.fenced) == 0)
  }
}
