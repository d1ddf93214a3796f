import FeedbackLoop
import FeedbackLoopDurable
import FeedbackLoopTesting
import Foundation
import Logging

/// A harness for durable tests whose effects wait on a test clock: each
/// `restore` is a new process (a new writer) over the same journal, while the
/// journal, the clock and the effects' executor stand for the world, which
/// outlives processes.
struct ClockedHarness {
  let journal = HeldJournal()
  let executor = ManualTaskExecutor()
  let testClock: TestClock
  let wall: WallClock
  let logs = LogRecorder()

  init() {
    testClock = TestClock(executor: executor)
    wall = WallClock(following: testClock)
  }

  var environment: SystemEnvironment {
    SystemEnvironment(clock: wall, effectExecutor: executor, logger: logs.logger)
  }

  func restore<State: Codable & Sendable, Event: Codable & Sendable>(
    _ id: String, initial: State, reduce: @escaping @Sendable (inout State, Event) -> Void,
    feedbacks: [Feedback<State, Event>], writer: JournalWriter? = nil, snapshots: SnapshotPolicy<State> = .never
  ) async throws -> DurableSystem<State, Event> {
    try await DurableSystem.restore(
      id: id, writer: writer ?? JournalWriter(journal: journal), initial: initial, reduce: reduce,
      feedbacks: feedbacks, snapshots: snapshots, environment: environment)
  }
}
