import FeedbackLoop
import FeedbackLoopDurable
import Foundation
import Testing

@Suite("Misuse stops with a clear message")
struct MisuseTests {
  @Test("a durable system with a bounded event buffer stops with a message that points to the writer's queue")
  func boundedEventBuffer() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = try? await DurableSystem.restore(
        id: "account", writer: JournalWriter(journal: InMemoryJournal()), initial: 0,
        reduce: { (count: inout Int, step: Int) in count += step },
        environment: SystemEnvironment(eventBuffer: .dropNewest(limit: 10)))
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("event buffer must be unbounded"), "stderr: \(message)")
    #expect(message.contains("JournalWriter(journal:queue:)"), "stderr: \(message)")
  }

  @Test("a snapshot every 0 events stops with a clear message")
  func snapshotEveryZero() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = SnapshotPolicy<Int>.every(0)
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("needs a count of at least 1"), "stderr: \(message)")
  }

  @Test("a writer's queue limit below 1 stops with a clear message")
  func queueLimitZero() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = JournalWriter(journal: InMemoryJournal(), queue: .refuseNewEvents(limit: 0))
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("needs a limit of at least 1"), "stderr: \(message)")
  }
}
