import FeedbackLoop
import FeedbackLoopTesting
import Testing

@Suite("A ManualTaskExecutor is not released while jobs wait in it")
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
