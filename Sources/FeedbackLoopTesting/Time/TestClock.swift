import DequeModule
import FeedbackLoop

/// A clock whose time moves only when a test moves it (G11).
///
/// Inject it through `SystemEnvironment.clock`; effects sleep on it with
/// `Send.clock`. ``advance(by:)`` moves time forward, waking each sleeper
/// whose deadline is reached, in deadline order (and, for equal deadlines,
/// in the order they went to sleep), at its own deadline. Given a
/// ``ManualTaskExecutor``, the clock runs it until idle after each wake, so
/// that what a timer triggers (events, new timers) has happened before time
/// moves on: a 3-second timer fires in no real time, deterministically.
///
/// ```swift
/// let executor = ManualTaskExecutor()
/// let clock = TestClock(executor: executor)
/// let system = System(..., environment: SystemEnvironment(clock: clock, effectExecutor: executor))
/// clock.advance(by: .seconds(3))
/// ```
///
/// A ``TestSystem`` makes and drives one for you; make it yourself when a
/// fake dependency must sleep on it too, and hand it to the test system.
///
/// Why not pointfreeco/swift-clocks' `TestClock`: its `advance(by:)` is
/// `async` and lets woken sleepers run by yielding to the global executor a
/// number of times, so a test awaits it and what a timer triggered may not
/// have run yet when it returns. This one is synchronous and drives the
/// ``ManualTaskExecutor`` that runs the effects after each wake, so a
/// synchronous test can `advance` and then assert, with no `await` and no
/// yield count to tune.
public final class TestClock: Clock, @unchecked Sendable {
  // Sendable: `current`, `sleepers` and `nextID` are guarded by `lock`; the
  // other stored properties are immutable.

  /// A moment on a test clock: the time since the clock was made.
  public struct Instant: InstantProtocol, Hashable, Sendable, CustomStringConvertible {
    /// The time elapsed since the clock's start.
    public let offset: Duration

    /// The moment `offset` after the clock's start.
    public init(offset: Duration) { self.offset = offset }

    public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
    public func duration(to other: Instant) -> Duration { other.offset - offset }
    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    public var description: String { "\(offset)" }
  }

  private struct Sleeper {
    let id: UInt64
    let deadline: Instant
    let continuation: CheckedContinuation<Void, any Error>
  }

  private let lock = Lock()
  private var current = Instant(offset: .zero)
  private var sleepers: [Sleeper] = []
  private var nextID: UInt64 = 0
  private let settle: @Sendable () -> Void
  /// The manual executor given at creation, stored untyped because
  /// `TaskExecutor` needs macOS 15 / iOS 18.
  private let executorStorage: (any Sendable)?

  /// A test clock at time zero. Wakes sleepers and returns; the woken tasks
  /// run on their own executors.
  public init() {
    settle = {}
    executorStorage = nil
  }

  /// A test clock at time zero that runs `executor` until idle after each wake.
  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  public init(executor: ManualTaskExecutor) {
    settle = { executor.runUntilIdle() }
    executorStorage = executor
  }

  /// The executor this clock runs after each wake, if it was given one.
  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  public var executor: ManualTaskExecutor? { executorStorage as? ManualTaskExecutor }

  /// The current time.
  public var now: Instant { lock.withLock { current } }

  /// Zero: a test clock wakes a sleeper at its deadline exactly.
  public var minimumResolution: Duration { .zero }

  /// The number of tasks sleeping on this clock.
  public var sleeperCount: Int { lock.withLock { sleepers.count } }

  /// The deadline of the earliest sleeper, if any.
  public var nextDeadline: Instant? { lock.withLock { sleepers.map(\.deadline).min() } }

  /// Suspends until the clock reaches `deadline`, or throws
  /// `CancellationError` when the task is cancelled first.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    let id = lock.withLock {
      nextID += 1
      return nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        enum Outcome { case wait, wake, cancel }
        let outcome: Outcome = lock.withLock {
          if deadline <= current { return .wake }
          // A cancellation handler that ran before this point found no
          // sleeper to cancel; the task's flag is set before handlers run,
          // so checking it under the lock misses no cancellation.
          if Task.isCancelled { return .cancel }
          sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
          return .wait
        }
        switch outcome {
        case .wait: break
        case .wake: continuation.resume()
        case .cancel: continuation.resume(throwing: CancellationError())
        }
      }
    } onCancel: {
      let cancelled = lock.withLock { () -> Sleeper? in
        guard let index = sleepers.firstIndex(where: { $0.id == id }) else { return nil }
        return sleepers.remove(at: index)
      }
      cancelled?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Moves time forward by `duration`, waking every sleeper whose deadline
  /// falls within, in order, each at its deadline.
  public func advance(by duration: Duration) {
    let target = lock.withLock { current.advanced(by: duration) }
    advance(to: target)
  }

  /// Moves time forward to `target` (never backwards).
  public func advance(to target: Instant) {
    settle()
    while let sleeper = nextSleeper(until: target) {
      sleeper.continuation.resume()
      settle()
    }
    lock.withLock { if current < target { current = target } }
  }

  /// Moves time forward until no task sleeps on the clock any more.
  /// Stops after `limit` wakes, so that a repeating timer cannot run forever.
  public func run(limit: Int = 10_000) {
    settle()
    var wakes = 0
    while wakes < limit, let deadline = nextDeadline {
      advance(to: deadline)
      wakes += 1
    }
  }

  /// Removes and returns the earliest sleeper due by `target` (the first to
  /// sleep among equal deadlines), moving the time to its deadline.
  private func nextSleeper(until target: Instant) -> Sleeper? {
    lock.withLock {
      guard let index = sleepers.indices.min(by: { sleepers[$0].deadline < sleepers[$1].deadline }),
        sleepers[index].deadline <= target
      else { return nil }
      let sleeper = sleepers.remove(at: index)
      if current < sleeper.deadline { current = sleeper.deadline }
      return sleeper
    }
  }
}
