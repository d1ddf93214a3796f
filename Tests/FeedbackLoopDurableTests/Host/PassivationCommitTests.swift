import Dispatch
import FeedbackLoop
import FeedbackLoopDurable
import FeedbackLoopTesting
import Foundation
import Testing

/// A host passivates an idle system only once every event sent to it is
/// committed: events being written, queued behind them, or waiting for a
/// main-actor hop.
@Suite("Passivation waits for commits", .runsLeftoverJobs, .timeLimit(.minutes(1)))
struct PassivationCommitTests {
  @Test(
    """
    G16 an idle system whose events are being written, and queued behind them, is not dropped: \
    it is passivated once they are committed, and its next event restores every one
    """)
  func passivationWaitsForEventsInFlight() async throws {
    let durable = DurableHarness()
    let clock = TestClock()
    let restores = Locked(0)
    let (stops, stopped) = AsyncStream<Void>.makeStream()
    let host = DurableHost<Account.State, Account.Event>(passivateAfter: .seconds(60), clock: clock) { id in
      restores.withLock { $0 += 1 }
      return try await durable.restore(
        id, monitor: SystemMonitor { activity in if case .stopped = activity { stopped.yield() } })
    }
    durable.journal.hold()
    try await host.send(.deposit(1), to: "a")
    await durable.journal.waitForAppendCalls(1)  // `.deposit(1)` is being written
    try await host.send(.deposit(2), to: "a")  // queued behind it
    try await host.send(.deposit(3), to: "a")
    clock.advance(by: .seconds(60))
    let sweep = Task { await host.passivateIdleSystems() }
    var stopsSeen = stops.makeAsyncIterator()
    _ = await stopsSeen.next()  // the passivation stopped the system, and waits for the commit
    #expect(host.loadedCount == 1)  // not dropped: still in memory
    #expect(host.loadedIDs == [])
    #expect(try await durable.storedEvents("a") == [])

    // An event for the id now waits for the passivation, rather than restore
    // a journal without the events in flight.
    let sends = ManualTaskExecutor()
    let send = Task(executorPreference: sends) { try await host.send(.deposit(4), to: "a") }
    sends.runUntilIdle()
    #expect(restores.withLock { $0 } == 1)

    durable.journal.release()
    #expect(await sweep.value == ["a"])
    #expect(try await durable.storedEvents("a") == [.deposit(1), .deposit(2), .deposit(3)])
    sends.runUntilIdle()  // the send restores the system
    let restored = try await host.system("a")
    sends.runUntilIdle()
    try await send.value
    try await restored.waitForCommit()
    #expect(restores.withLock { $0 } == 2)
    #expect(restored.state == Account.fold([.deposit(1), .deposit(2), .deposit(3), .deposit(4)]))
    #expect(try await durable.storedEvents("a") == [.deposit(1), .deposit(2), .deposit(3), .deposit(4)])
    #expect(restored.failure == nil)
    await host.stop()
  }

  @Test(
    """
    G16 a main-actor system whose events wait for their hop to the main actor is not idle: \
    it is passivated once they are reduced and committed, and none is lost
    """)
  func eventsQueuedForTheMainActorKeepTheSystemLoaded() async throws {
    let durable = DurableHarness()
    let clock = TestClock()
    let restores = Locked(0)
    let host = DurableHost<Account.State, Account.Event>(passivateAfter: .seconds(60), clock: clock) { id in
      restores.withLock { $0 += 1 }
      return try await DurableSystem.restore(
        id: id, writer: durable.writer, initial: Account.State(), reduce: Account.reduce, snapshots: .never,
        isolation: .mainActor, environment: durable.environment)
    }
    // The main actor is busy: events sent from elsewhere wait for their hop.
    let mainIsBusy = DispatchSemaphore(value: 0)
    let letMainGo = DispatchSemaphore(value: 0)
    Task { @MainActor in
      mainIsBusy.signal()
      letMainGo.wait()
    }
    await wait(for: mainIsBusy)
    try await host.send(.deposit(1), to: "a")
    try await host.send(.deposit(2), to: "a")
    clock.advance(by: .seconds(60))
    // Nobody holds the system and no task of it runs, but its events wait.
    #expect(await host.passivateIdleSystems() == [])
    #expect(host.loadedIDs == ["a"])

    letMainGo.signal()
    do {
      let system = try await host.system("a")  // the loaded one: no restore
      await MainActor.run { system.system.processQueuedEvents() }
      try await system.waitForCommit()
    }
    clock.advance(by: .seconds(60))
    #expect(await host.passivateIdleSystems() == ["a"])
    #expect(restores.withLock { $0 } == 1)
    #expect(try await durable.storedEvents("a") == [.deposit(1), .deposit(2)])

    try await host.send(.deposit(3), to: "a")
    let restored = try await host.system("a")
    await MainActor.run { restored.system.processQueuedEvents() }
    try await restored.waitForCommit()
    #expect(restores.withLock { $0 } == 2)
    #expect(restored.state == Account.fold([.deposit(1), .deposit(2), .deposit(3)]))
    #expect(try await durable.storedEvents("a") == [.deposit(1), .deposit(2), .deposit(3)])
    await host.stop()
  }

  /// Waits for `semaphore` on a thread of its own, not the test's, nor
  /// one of Dispatch's: Swift's tasks run on Dispatch's worker threads, so
  /// a worker blocked here is one fewer for them until Dispatch notices.
  private func wait(for semaphore: DispatchSemaphore) async {
    await withCheckedContinuation { continuation in
      Thread {
        semaphore.wait()
        continuation.resume()
      }.start()
    }
  }
}
