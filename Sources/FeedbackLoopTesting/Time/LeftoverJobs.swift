import FeedbackLoop

#if canImport(Testing)
  import Testing
#endif

/// The executors a test made, so that the work they hold when the test ends
/// is run to its end rather than kept forever.
///
/// Why: a system released or stopped at the end of a test cancels its
/// effects, and each cancelled task must run once more, on its executor, to
/// end. A `ManualTaskExecutor` runs nothing unless told to, and the task keeps
/// its executor alive: nothing is dropped, but the tasks, the executor and
/// everything they captured stay in memory until the process ends, where
/// LeakSanitizer reports them. The trait runs them instead.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
final class LeftoverJobs: Sendable {
  @TaskLocal static var current: LeftoverJobs?

  /// Weak: an executor that no task holds has nothing left to run, and the
  /// test may check that it is released.
  private let executors = Locked<[WeakExecutor]>([])

  struct WeakExecutor {
    weak var executor: ManualTaskExecutor?
  }

  func register(_ executor: ManualTaskExecutor) {
    executors.withLock { $0.append(WeakExecutor(executor: executor)) }
  }

  /// Runs the registered executors until none holds a job (running one may
  /// schedule work on another), at most `limit` jobs in all; returns the
  /// number of jobs run, or `nil` when the work did not come to rest.
  ///
  /// Never inlined: inlined into the trait's async scope, after its `await`,
  /// the release build's `Mutex` stopped the process at this lock ("Call to
  /// unlock Mutex on a thread which hasn't acquired the lock", Swift 6.3.1,
  /// Linux, `swift test -c release`), most likely because the thread's
  /// identity was read before the `await`, on another thread; out of line,
  /// it is read here, and the release suite passes.
  @inline(never)
  func runToTheEnd(limit: Int = 1_000_000) -> Int? {
    var run = 0
    while run < limit {
      let alive = executors.withLock { executors in executors.compactMap(\.executor) }
      var ranThisRound = 0
      for executor in alive { ranThisRound += executor.runJobs(limit: limit - run - ranThisRound) }
      if ranThisRound == 0 { return run }
      run += ranThisRound
    }
    return nil
  }
}

#if canImport(Testing)
  /// A trait that runs, when each test ends, the jobs left on every
  /// ``ManualTaskExecutor`` the test made: the last steps of the effects that
  /// its systems cancelled when they were stopped or released.
  ///
  /// Without it, those tasks wait forever on an executor nobody runs again,
  /// and they keep their captures (often the whole test's world) alive until
  /// the process ends, where LeakSanitizer counts them. With it, a leak that
  /// remains is the test's or the library's own, and LeakSanitizer shows it.
  /// A test whose leftover work never comes to rest (an effect that loops
  /// without waiting) fails with a message.
  ///
  /// Apply it to a suite, and it applies to every test inside:
  ///
  /// ```swift
  /// @Suite(.runsLeftoverJobs)
  /// struct SearchTests {
  ///   @Test func newQueryCancelsThePageInFlight() {
  ///     let executor = ManualTaskExecutor()
  ///     // … a system on `executor`, released when the test returns; its
  ///     // cancelled request runs to its end here, after the test.
  ///   }
  /// }
  /// ```
  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  public struct RunsLeftoverJobsTrait: TestTrait, SuiteTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(
      for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
      // A suite's own scope wraps its tests: each test gets a scope of its own.
      guard testCase != nil else { return try await function() }
      let jobs = LeftoverJobs()
      defer {
        if jobs.runToTheEnd() == nil {
          Issue.record(
            "the work left on the test's ManualTaskExecutors did not come to rest after 1,000,000 jobs")
        }
      }
      try await LeftoverJobs.$current.withValue(jobs) { try await function() }
    }
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  extension Trait where Self == RunsLeftoverJobsTrait {
    /// Runs, when each test ends, the jobs left on the test's
    /// ``ManualTaskExecutor``s (see ``RunsLeftoverJobsTrait``).
    public static var runsLeftoverJobs: Self { Self() }
  }
#endif
