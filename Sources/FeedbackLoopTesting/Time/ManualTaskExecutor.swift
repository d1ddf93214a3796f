import DequeModule
import FeedbackLoop

/// A task executor that runs nothing until told to: the effects and inputs
/// of a system given it (`SystemEnvironment.effectExecutor`) advance only
/// inside ``runUntilIdle()``, on the calling thread, in the order they were
/// scheduled.
///
/// With it, a test knows when effects have run: after `runUntilIdle()`,
/// every effect has reached a point where it waits for something outside
/// (the test clock, an input) or has ended. No sleeps, no yields, no timeouts.
///
/// ```swift
/// let executor = ManualTaskExecutor()
/// let clock = TestClock(executor: executor)
/// let system = System(
///   initial: HUD.State(), reduce: HUD.reduce, feedbacks: HUD.feedbacks,
///   environment: SystemEnvironment(clock: clock, effectExecutor: executor)
/// )
/// system.send(.tap)
/// executor.runUntilIdle()
/// clock.advance(by: .seconds(3))  // the 3 s auto-hide fires, and runs
/// ```
///
/// Work that leaves the executor (a call into another actor, a real network
/// request) goes on elsewhere; `runUntilIdle()` does not wait for it.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
public final class ManualTaskExecutor: TaskExecutor, @unchecked Sendable {
  // Sendable: `jobs` is guarded by `lock`; jobs run on the thread that calls
  // `runUntilIdle()`, one at a time.
  private let lock = Lock()
  private var jobs = Deque<UnownedJob>()

  /// A new executor with no work. In a test that carries the
  /// ``RunsLeftoverJobsTrait`` (`.runsLeftoverJobs`), what the test leaves on
  /// this executor runs when the test ends.
  public init() {
    LeftoverJobs.current?.register(self)
  }

  /// Keeps `job` until ``runUntilIdle()`` runs it. Called by the Swift
  /// runtime for each task that prefers this executor, when it starts and
  /// each time it resumes.
  public func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    lock.withLock { jobs.append(job) }
  }

  /// The number of jobs waiting to run.
  public var pendingJobs: Int { lock.withLock { jobs.count } }

  /// Runs jobs, including those they schedule, until none is left, on the
  /// calling thread. Returns the number of jobs run. Call it from one thread
  /// at a time (a test's own).
  ///
  /// ```swift
  /// system.send(.search("swift"))
  /// executor.runUntilIdle()  // the request effect has started, and waits
  /// ```
  @discardableResult
  public func runUntilIdle() -> Int {
    var count = 0
    while let job = lock.withLock({ jobs.popFirst() }) {
      job.runSynchronously(on: asUnownedTaskExecutor())
      count += 1
    }
    return count
  }

  /// Runs jobs, including those they schedule, until none is left or
  /// `limit` jobs have run. Returns whether none is left: `false` means the
  /// work does not come to rest, such as a loop of effects that never waits.
  ///
  /// ```swift
  /// guard executor.runUntilIdle(limit: 100_000) else {
  ///   Issue.record("the effects never come to rest")
  ///   return
  /// }
  /// ```
  @discardableResult
  public func runUntilIdle(limit: Int) -> Bool {
    _ = runJobs(limit: limit)
    return pendingJobs == 0
  }

  /// Runs jobs until none is left or `limit` jobs have run; returns how
  /// many ran.
  func runJobs(limit: Int) -> Int {
    var count = 0
    while count < limit, let job = lock.withLock({ jobs.popFirst() }) {
      job.runSynchronously(on: asUnownedTaskExecutor())
      count += 1
    }
    return count
  }
}
