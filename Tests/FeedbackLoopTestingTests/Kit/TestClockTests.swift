import FeedbackLoop
import FeedbackLoopTesting
import Testing

@Suite("The test clock moves only when told, and wakes each sleeper at its deadline", .runsLeftoverJobs)
struct TestClockTests {
  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func sleepersWakeInDeadlineOrderEachAtItsOwnDeadline() {
    let executor = ManualTaskExecutor()
    let clock = TestClock(executor: executor)
    let woken = Locked<[String]>([])
    for (name, delay) in [("c", 3), ("a", 1), ("b", 2), ("a2", 1)] {
      Task(executorPreference: executor) {
        try await clock.sleep(for: .seconds(delay))
        let now = clock.now
        woken.withLock { $0.append("\(name)@\(now.offset.components.seconds)") }
      }
    }
    executor.runUntilIdle()
    #expect(clock.sleeperCount == 4)
    #expect(clock.nextDeadline == TestClock.Instant(offset: .seconds(1)))
    clock.advance(by: .seconds(2))
    #expect(woken.withLock { $0 } == ["a@1", "a2@1", "b@2"])
    #expect(clock.now == TestClock.Instant(offset: .seconds(2)))
    clock.run()
    #expect(woken.withLock { $0 } == ["a@1", "a2@1", "b@2", "c@3"])
    #expect(clock.sleeperCount == 0)
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func aCancelledSleeperThrowsAndLeavesTheClock() async {
    let executor = ManualTaskExecutor()
    let clock = TestClock(executor: executor)
    let sleeper = Task(executorPreference: executor) {
      try await clock.sleep(for: .seconds(1))
    }
    executor.runUntilIdle()
    #expect(clock.sleeperCount == 1)
    sleeper.cancel()
    executor.runUntilIdle()
    #expect(clock.sleeperCount == 0)
    await #expect(throws: CancellationError.self) { try await sleeper.value }
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func aTaskCancelledBeforeItSleepsDoesNotSleep() async {
    let executor = ManualTaskExecutor()
    let clock = TestClock(executor: executor)
    let sleeper = Task(executorPreference: executor) {
      try await clock.sleep(for: .seconds(1))
    }
    sleeper.cancel()
    executor.runUntilIdle()
    #expect(clock.sleeperCount == 0)
    await #expect(throws: CancellationError.self) { try await sleeper.value }
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func aDeadlineAlreadyPastDoesNotSleep() {
    let executor = ManualTaskExecutor()
    let clock = TestClock(executor: executor)
    clock.advance(by: .seconds(5))
    let done = Locked(false)
    Task(executorPreference: executor) {
      try await clock.sleep(until: TestClock.Instant(offset: .seconds(4)))
      done.withLock { $0 = true }
    }
    executor.runUntilIdle()
    #expect(done.withLock { $0 })
    #expect(clock.executor === executor)
    #expect(TestClock().executor == nil)
  }
}
