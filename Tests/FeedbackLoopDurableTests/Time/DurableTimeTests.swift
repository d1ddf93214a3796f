import FeedbackLoop
import FeedbackLoopDurable
import FeedbackLoopTesting
import Foundation
import Testing

/// A reminder: a deadline kept in the state, fired by a deadline feedback.
enum Reminder {
  struct State: Codable, Sendable, Equatable {
    var deadline: WallClock.Instant?
    var fired: [WallClock.Instant] = []
  }

  enum Event: Codable, Sendable, Equatable {
    case set(WallClock.Instant)
    case cancel
    case fired(WallClock.Instant)
  }

  static func reduce(_ state: inout State, _ event: Event) {
    switch event {
    case .set(let deadline): state.deadline = deadline
    case .cancel: state.deadline = nil
    case .fired(let deadline):
      state.fired.append(deadline)
      state.deadline = nil
    }
  }

  static let timer = Feedback<State, Event>.deadline(\.deadline, name: "reminder") { .fired($0) }
}

@Suite("Durable time", .runsLeftoverJobs, .timeLimit(.minutes(1)))
struct DurableTimeTests {
  private func restore(_ harness: ClockedHarness) async throws -> DurableSystem<Reminder.State, Reminder.Event> {
    try await harness.restore(
      "reminder", initial: Reminder.State(), reduce: Reminder.reduce, feedbacks: [Reminder.timer])
  }

  /// Sets a reminder 10 s after t0, and crashes at t0 + 4 s.
  private func setThenCrash(_ harness: ClockedHarness) async throws -> WallClock.Instant {
    let deadline = harness.wall.now.advanced(by: .seconds(10))
    var reminder: DurableSystem<Reminder.State, Reminder.Event>? = try await restore(harness)
    try await reminder?.sendDurably(.set(deadline))
    harness.executor.runUntilIdle()
    #expect(harness.testClock.sleeperCount == 1)
    harness.testClock.advance(by: .seconds(4))
    reminder = nil  // the crash: the process is gone, with its timer
    harness.executor.runUntilIdle()
    #expect(harness.testClock.sleeperCount == 0)
    return deadline
  }

  @Test("a timer set before a crash fires at its original deadline after a restart")
  func timerFiresAtItsOriginalDeadline() async throws {
    let harness = ClockedHarness()
    let deadline = try await setThenCrash(harness)
    harness.testClock.advance(by: .seconds(2))  // restarted at t0 + 6 s
    let restored = try await restore(harness)
    harness.executor.runUntilIdle()
    #expect(harness.testClock.nextDeadline == TestClock.Instant(offset: .seconds(10)))
    harness.testClock.advance(to: TestClock.Instant(offset: .seconds(10) - .nanoseconds(1)))
    #expect(restored.state.fired.isEmpty)
    harness.testClock.advance(to: TestClock.Instant(offset: .seconds(10)))
    #expect(restored.state.fired == [deadline])
    #expect(restored.state.deadline == nil)
    try await restored.waitForCommit()
    restored.stop()
  }

  @Test("a timer whose deadline passed while the process was down fires at once after a restart")
  func passedDeadlineFiresAtOnce() async throws {
    let harness = ClockedHarness()
    let deadline = try await setThenCrash(harness)
    harness.testClock.advance(by: .seconds(8))  // restarted at t0 + 12 s
    let restored = try await restore(harness)
    harness.executor.runUntilIdle()
    #expect(restored.state.fired == [deadline])
    #expect(harness.wall.now == WallClock.Instant.unixEpoch.advanced(by: .seconds(12)))
    #expect(harness.testClock.sleeperCount == 0)
    try await restored.waitForCommit()
    restored.stop()
  }

  @Test("a cancelled deadline does not fire after a restart")
  func cancelledDeadlineDoesNotFire() async throws {
    let harness = ClockedHarness()
    var reminder: DurableSystem<Reminder.State, Reminder.Event>? = try await restore(harness)
    try await reminder?.sendDurably(.set(harness.wall.now.advanced(by: .seconds(10))))
    harness.executor.runUntilIdle()
    harness.testClock.advance(by: .seconds(4))
    try await reminder?.sendDurably(.cancel)
    harness.executor.runUntilIdle()
    #expect(harness.testClock.sleeperCount == 0)
    reminder = nil
    harness.testClock.advance(by: .seconds(2))
    let restored = try await restore(harness)
    harness.executor.runUntilIdle()
    harness.testClock.advance(by: .seconds(60))
    #expect(restored.state.fired.isEmpty)
    #expect(harness.testClock.sleeperCount == 0)
    restored.stop()
  }

  @Test("a deadline in the distant future waits without overflow, and is cancelled with its system")
  func distantDeadlineWaits() async throws {
    let harness = ClockedHarness()
    let reminder = try await restore(harness)
    try await reminder.sendDurably(.set(.distantFuture))
    harness.executor.runUntilIdle()
    harness.testClock.advance(by: .seconds(86_400 * 365))
    #expect(reminder.state.fired.isEmpty)
    #expect(harness.testClock.sleeperCount == 1)
    reminder.stop()
    harness.executor.runUntilIdle()
    #expect(harness.testClock.sleeperCount == 0)
  }

  @Test("a wall-clock instant encodes as its nanoseconds since the Unix epoch, and prints in ISO 8601")
  func instantIsCodableAndPrintable() throws {
    let instant = WallClock.Instant(nanosecondsSinceUnixEpoch: 1_795_000_000_123_456_789)
    let data = try JSONEncoder().encode(instant)
    #expect(String(decoding: data, as: UTF8.self) == "1795000000123456789")
    #expect(try JSONDecoder().decode(WallClock.Instant.self, from: data) == instant)
    #expect(instant.description == "2026-11-18T11:06:40.123456789Z")
    #expect(WallClock.Instant.unixEpoch.advanced(by: .milliseconds(-1)).description == "1969-12-31T23:59:59.999000000Z")
    #expect(WallClock.Instant.unixEpoch.advanced(by: .seconds(Int64.max)) == .distantFuture)
    #expect(WallClock.Instant.unixEpoch.advanced(by: .seconds(Int64.min)) == .distantPast)
    #expect(WallClock.Instant.distantPast.duration(to: .distantFuture) > .seconds(500 * 365 * 86_400))
    let date = Date(timeIntervalSince1970: 1_700_000_000)
    #expect(WallClock.Instant(date).date == date)
  }

  @Test("the system's wall clock tells the time of Date")
  func systemWallClockTellsDate() {
    let before = WallClock.Instant(Date())
    let now = WallClock().now
    let after = WallClock.Instant(Date())
    #expect(before <= now && now <= after)
  }

  @Test("a deadline waited for on a clock without wall time stops with a message that says to wrap it")
  func deadlineOnATestClockStops() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let executor = ManualTaskExecutor()
      let system = System(
        initial: Reminder.State(deadline: .unixEpoch), reduce: Reminder.reduce, feedbacks: [Reminder.timer],
        environment: SystemEnvironment(clock: TestClock(), effectExecutor: executor))
      executor.runUntilIdle()
      system.stop()
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("WallClock(following: testClock)"), "stderr: \(message)")
  }
}
