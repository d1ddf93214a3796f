import Logging

/// What a running system takes from the world: its clock, where its effects
/// run, where it logs, and how many events it may hold.
///
/// Every timer, delay and debounce of the system's effects goes through
/// ``clock`` (G11), so a test injects a test clock and never sleeps.
///
/// ```swift
/// let clock = TestClock()
/// let system = System(
///   initial: HUD.State(), reduceReturning: HUD.reduce, feedbacks: HUD.feedbacks,
///   environment: SystemEnvironment(clock: clock)
/// )
/// ```
public struct SystemEnvironment: Sendable {
  /// The values, in one immutable object that every system started with the
  /// same environment shares: an environment in every running system would
  /// otherwise cost each of them some 170 bytes (the idle-systems benchmark in BENCHMARKS.md).
  @usableFromInline let storage: Storage

  @usableFromInline
  final class Storage: Sendable {
    let clock: any Clock<Duration>
    let logger: Logger
    let eventBuffer: EventBufferPolicy
    let effectExecutor: (any Sendable)?

    init(clock: any Clock<Duration>, logger: Logger, eventBuffer: EventBufferPolicy, effectExecutor: (any Sendable)?) {
      self.clock = clock
      self.logger = logger
      self.eventBuffer = eventBuffer
      self.effectExecutor = effectExecutor
    }

    /// What ``SystemEnvironment/init()`` holds: made once.
    static let standard = Storage(
      clock: ContinuousClock(), logger: SystemEnvironment.defaultLogger, eventBuffer: .unbounded, effectExecutor: nil)
  }

  init(storage: Storage) { self.storage = storage }

  /// The clock every effect times itself with (``Send/clock``).
  public var clock: any Clock<Duration> {
    get { storage.clock }
    set { self = with(clock: newValue) }
  }

  /// Where the system logs what it cannot report otherwise, such as an
  /// effect's unmapped error (G12).
  public var logger: Logger {
    get { storage.logger }
    set { self = with(logger: newValue) }
  }

  /// How many events the system holds while it is busy (G14).
  public var eventBuffer: EventBufferPolicy {
    get { storage.eventBuffer }
    set { self = with(eventBuffer: newValue) }
  }

  /// The task executor effects and inputs run on (Swift 6 `TaskExecutor`), or
  /// `nil` for the global concurrent executor. Stored untyped because
  /// `TaskExecutor` needs macOS 15 / iOS 18.
  @usableFromInline var effectExecutorStorage: (any Sendable)? { storage.effectExecutor }

  func with(
    clock: (any Clock<Duration>)? = nil, logger: Logger? = nil, eventBuffer: EventBufferPolicy? = nil,
    effectExecutor: (any Sendable)?? = nil
  ) -> SystemEnvironment {
    SystemEnvironment(
      storage: Storage(
        clock: clock ?? storage.clock, logger: logger ?? storage.logger,
        eventBuffer: eventBuffer ?? storage.eventBuffer, effectExecutor: effectExecutor ?? storage.effectExecutor))
  }

  /// The standard environment: the continuous clock, the shared
  /// ``defaultLogger``, an unbounded event buffer and the global executor.
  /// Every system started with it shares one copy.
  ///
  /// ```swift
  /// let counter = System(initial: 0, reduceReturning: reduce, environment: SystemEnvironment())
  /// ```
  public init() {
    storage = .standard
  }

  /// An environment with the given clock, logger and event buffer.
  public init(
    clock: any Clock<Duration> = ContinuousClock(),
    logger: Logger = SystemEnvironment.defaultLogger,
    eventBuffer: EventBufferPolicy = .unbounded
  ) {
    storage = Storage(clock: clock, logger: logger, eventBuffer: eventBuffer, effectExecutor: nil)
  }

  /// An environment whose effects and inputs run on `effectExecutor`.
  ///
  /// The testing kit passes a manual executor here, so that a test runs every
  /// effect to its next suspension point, deterministically.
  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  public init(
    clock: any Clock<Duration> = ContinuousClock(),
    effectExecutor: (any TaskExecutor)?,
    logger: Logger = SystemEnvironment.defaultLogger,
    eventBuffer: EventBufferPolicy = .unbounded
  ) {
    storage = Storage(clock: clock, logger: logger, eventBuffer: eventBuffer, effectExecutor: effectExecutor)
  }

  /// The logger of environments that name none, labelled "FeedbackLoop";
  /// made once and shared.
  public static let defaultLogger = Logger(label: "FeedbackLoop")

  /// The task executor effects and inputs run on, or `nil` for the global one.
  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  public var effectExecutor: (any TaskExecutor)? {
    get { effectExecutorStorage as? any TaskExecutor }
    set { self = with(effectExecutor: .some(newValue.map { $0 as any Sendable })) }
  }
}

/// How many events a system holds while it is busy reducing, and what it
/// does with one more (G14).
///
/// Events wait only while the loop is busy: an event sent to an idle system
/// of its own isolation is reduced at once, on the sending thread. With
/// ``unbounded`` (the default) no accepted event is ever lost. With a bound,
/// memory stays bounded and every event dropped is reported to the monitor
/// as ``DiscardReason/bufferFull``.
///
/// ```swift
/// SystemEnvironment(eventBuffer: .dropNewest(limit: 10_000))
/// ```
///
/// It grows: a later version may add a case. End a `switch` over it with
/// `default:` or `@unknown default:`, so that a new case does not break your
/// build.
public enum EventBufferPolicy: Sendable, Hashable {
  /// Hold every event: nothing is lost, memory grows with the backlog.
  case unbounded
  /// Hold at most `limit` events; an event sent when full is dropped.
  /// A limit of 0 holds none: every event sent while the loop is busy is
  /// dropped. A negative limit stops the program when a system is made.
  case dropNewest(limit: Int)
  /// Hold at most `limit` events; when full, the oldest waiting one is
  /// dropped to make room. A limit of 0 holds none: every event sent while
  /// the loop is busy is dropped. A negative limit stops the program when a
  /// system is made.
  case dropOldest(limit: Int)
}

/// Where a system's reducer and feedbacks run (G10).
///
/// ```swift
/// // UI code: a send made on the main actor has reduced before it returns.
/// let store = System(initial: State(), reduceReturning: reduce, isolation: .mainActor)
/// ```
///
/// It grows: a later version may add a case. End a `switch` over it with
/// `default:` or `@unknown default:`, so that a new case does not break your
/// build.
public enum SystemIsolation: Sendable, Hashable {
  /// The reducer and the feedbacks run on the sending thread: the thread
  /// that sends to an idle system runs them at once; a send that arrives
  /// while it is busy is queued and drained by the thread already running
  /// the loop. One at a time, under the system's lock; no task and no hop.
  /// For background and server code.
  case sendingThread
  /// The reducer, the feedbacks and the observers run on the main actor. A
  /// send made on the main actor reduces before it returns; a send from
  /// elsewhere is queued and drained on the main actor with one hop.
  case mainActor
}
