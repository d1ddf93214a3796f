import FeedbackLoop
import Testing

@testable import FeedbackLoopTesting

@Suite("A ManualTaskExecutor is not released while jobs wait in it", .runsLeftoverJobs)
struct ManualTaskExecutorTests {
  /// A task that prefers an executor keeps it: the executor cannot be
  /// released, and drop its jobs, while a job of that task waits in it. A
  /// test that ends with jobs left therefore leaks the executor and the
  /// tasks together (what LeakSanitizer reports), rather than dropping jobs.
  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func aWaitingJobKeepsItsExecutorUntilItRuns() {
    var executor: ManualTaskExecutor? = ManualTaskExecutor()
    weak let released = executor
    let ran = Locked(0)
    Task(executorPreference: executor!) { ran.withLock { $0 += 1 } }
    executor = nil
    #expect(released != nil)
    #expect(released?.pendingJobs == 1)
    released?.runUntilIdle()
    #expect(ran.withLock { $0 } == 1)
    #expect(released == nil)
  }
}

@Suite("The leftover-jobs trait runs what a test leaves on its executors", .runsLeftoverJobs)
struct LeftoverJobsTests {
  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func leftoverJobsRunToTheEndAndReleaseTheExecutor() {
    let jobs = LeftoverJobs()
    let ran = Locked(0)
    weak var released: ManualTaskExecutor?
    LeftoverJobs.$current.withValue(jobs) {
      let executor = ManualTaskExecutor()
      released = executor
      Task(executorPreference: executor) { ran.withLock { $0 += 1 } }
    }
    // What a test leaves: a job waiting, which keeps its executor.
    #expect(released != nil)
    #expect(ran.withLock { $0 } == 0)
    #expect(jobs.runToTheEnd() == 1)
    #expect(ran.withLock { $0 } == 1)
    #expect(released == nil)
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func workThatNeverComesToRestIsReported() {
    let jobs = LeftoverJobs()
    let spinning = LeftoverJobs.$current.withValue(jobs) {
      Task(executorPreference: ManualTaskExecutor()) {
        while !Task.isCancelled { await Task.yield() }
      }
    }
    #expect(jobs.runToTheEnd(limit: 1_000) == nil)
    spinning.cancel()
    #expect(jobs.runToTheEnd() != nil)
  }
}
