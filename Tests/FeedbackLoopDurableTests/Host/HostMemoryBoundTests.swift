import FeedbackLoop
import FeedbackLoopDurable
import FeedbackLoopTesting
import Foundation
import Testing

// The suite's time limit below catches a hang, not slowness: these tests
// take about a second alone, but share the one test process's two-thread
// cooperative pool with every other suite, and on a loaded two-core machine
// they finished after 104 to 140 s (past a one-minute limit, which failed
// them).

@Suite("Durable host memory bound", .runsLeftoverJobs, .timeLimit(.minutes(5)))
struct HostMemoryBoundTests {
  @Test("100,000 stored systems: a few hundred driven through a host, at most its bound in memory")
  func hundredThousandStoredSystems() async throws {
    let journal = InMemoryJournal()
    let deposit = try JSONDurableCodec().encode(DurableEnvelope(version: 1, value: Account.Event.deposit(1)))
    let ids = (0..<100_000).map { String(format: "account-%06d", $0) }
    // Written straight to the journal, in large batches: the systems exist
    // only as stored events.
    for start in stride(from: 0, to: ids.count, by: 10_000) {
      let batches = ids[start..<start + 10_000].map {
        JournalBatch(systemID: $0, expectedSequence: 0, events: [deposit])
      }
      _ = try await journal.append(batches)
    }
    #expect(try await journal.systemIDs(after: "account-099990", limit: 100).count == 9)

    let writer = JournalWriter(journal: journal)
    let bound = 32
    let host = DurableHost<Account.State, Account.Event>(passivateAfter: nil, maxLoaded: bound) { id in
      try await DurableSystem.restore(
        id: id, writer: writer, initial: Account.State(), reduce: Account.reduce, snapshots: .never)
    }
    var driven: [String] = []
    for step in 0..<300 {
      // Spread over the whole range, some ids more than once.
      let id = ids[(step * 7_919) % 200 * 499]
      try await host.sendDurably(.deposit(2), to: id)
      driven.append(id)
      #expect(host.loadedCount <= bound)
    }
    #expect(host.loadedCount == bound)
    for id in Set(driven).prefix(20) {
      let times = driven.count { $0 == id }
      #expect(try await host.system(id).state.balance == 1 + 2 * times)
    }
    await host.stop()
    #expect(host.loadedCount == 0)
  }
}
