import DequeModule
import FeedbackLoop

/// A system under test: the production system (same initial state, reducer
/// and feedbacks), driven step by step by a test, on a test clock, and
/// checked exhaustively.
///
/// A test system runs its system's effects on a ``ManualTaskExecutor`` and
/// times them with a ``TestClock``, so that after each step of the test
/// everything that could happen has happened: no sleeps, no timeouts, no
/// flakes. It watches the system through its `SystemMonitor` and insists,
/// by default (``Exhaustivity/on``), that the test states every change:
///
/// - ``send(_:assert:fileID:filePath:line:column:)`` sends an event and states
///   how it changes the state;
/// - ``receive(_:assert:fileID:filePath:line:column:)`` states the next event
///   that an effect produced, and how it changes the state;
/// - ``advance(by:fileID:filePath:line:column:)`` and
///   ``run(limit:fileID:filePath:line:column:)`` move the test clock, so
///   that a 3-second timer fires in no real time;
/// - ``finish(fileID:filePath:line:column:)`` (or the end of the test system's
///   life) fails if events were not received or effects are still running.
///
/// Each failure says what differs, with a diff of the expected and actual
/// state, and comes with the ``timeline`` of the run.
///
/// ```swift
/// @Test func hidesThreeSecondsAfterTheLastInteraction() {
///   let hud = TestSystem(initial: HUD.State(), reduce: HUD.reduce, feedbacks: HUD.feedbacks)
///   hud.send(.tap) {
///     $0.isVisible = true
///     $0.interactions = 1
///   }
///   hud.advance(by: .seconds(3))
///   hud.receive(.hide) { $0.isVisible = false }
///   hud.finish()
/// }
/// ```
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
public final class TestSystem<State: Sendable & Equatable, Event: Sendable> {
  /// The clock the system's effects time themselves with.
  public let clock: TestClock
  /// The executor the system's effects and inputs run on.
  public let executor: ManualTaskExecutor
  /// Whether every change must be asserted (``Exhaustivity/on``, the
  /// default) or only what the test names. May change during a test.
  public var exhaustivity: Exhaustivity
  /// Where failures go.
  public let reporter: TestFailureReporter
  /// How many executor jobs the system's effects may run in one step of the
  /// test (a send, a receive, a move of the clock) before the test system
  /// reports a runaway loop of effects and stops the system: a guard against
  /// a test that never ends. 100 000 by default.
  ///
  /// ```swift
  /// let big = TestSystem(initial: Grid(), reduceReturning: Grid.reduce, feedbacks: Grid.feedbacks)
  /// big.runawayLimit = 1_000_000  // a million cells, an effect each
  /// ```
  public var runawayLimit = 100_000
  /// What the system logged (its environment's logger): kept here rather
  /// than printed, since the test system already reports an unmapped error
  /// the test did not assert (``receiveUnmappedError(matching:fileID:filePath:line:column:)``).
  ///
  /// ```swift
  /// #expect(test.logs.messages.isEmpty)
  /// ```
  public let logs = LogRecorder()
  /// What the system did so far, each at its time on the test clock.
  public var timeline: Timeline<State, Event> {
    absorb()
    return recordedTimeline
  }

  let system: System<State, Event>
  let log: ActivityLog<State, Event>
  let creationSite: CallSite
  var recordedTimeline = Timeline<State, Event>()
  var received = Deque<Reduction>()
  var sentReduction: Reduction?
  var inFlight: [EffectInFlight] = []
  var skippedEffects: Set<EffectID> = []
  var unmappedErrors = Deque<UnmappedError>()
  var isFinished = false
  /// Why the test system no longer drives the system, for misuse messages.
  var stopReason = "finish()"

  /// An event reduced by the system, with the states around it.
  struct Reduction {
    let event: Event
    let source: EventSource
    let from: State
    let to: State
    let time: TestClock.Instant
  }

  /// An error an effect threw that no `catch` mapped to an event.
  struct UnmappedError {
    let effect: EffectID
    let error: any Error
    let time: TestClock.Instant
  }

  /// Tests the system that `makeSystem` builds, given the test environment
  /// and the test system's monitor.
  ///
  /// Use this form when production code builds its system in a function of
  /// its own; pass the environment and the monitor through.
  ///
  /// ```swift
  /// let search = TestSystem { environment, monitor in
  ///   Search.makeSystem(api: api, environment: environment, monitor: monitor)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - clock: the test clock; make it first when fakes need it too. When
  ///     made with ``TestClock/init(executor:)``, its executor runs the effects.
  ///   - exhaustivity: whether every change must be asserted.
  ///   - reporter: where failures go; by default the running test framework.
  ///   - fileID: where the test system is made: failures found when it is
  ///     released without ``finish(fileID:filePath:line:column:)`` point here.
  ///   - filePath: the same place's full path.
  ///   - line: the same place's line.
  ///   - column: the same place's column.
  ///   - makeSystem: builds the system with the given environment and
  ///     monitor, of `SystemIsolation.sendingThread` isolation.
  public init(
    clock: TestClock = TestClock(),
    exhaustivity: Exhaustivity = .on,
    reporter: TestFailureReporter = .automatic,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    system makeSystem: (SystemEnvironment, SystemMonitor<State, Event>) -> System<State, Event>
  ) {
    let executor = clock.executor ?? ManualTaskExecutor()
    let log = ActivityLog<State, Event>()
    self.clock = clock
    self.executor = executor
    self.exhaustivity = exhaustivity
    self.reporter = reporter
    self.log = log
    self.creationSite = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    self.system = makeSystem(
      SystemEnvironment(clock: clock, effectExecutor: executor, logger: logs.logger), log.monitor(clock: clock))
    settle()
  }

  /// Tests a system made of `initial`, `reduce` and `feedbacks`, exactly as
  /// production code would make it.
  ///
  /// ```swift
  /// let volume = TestSystem(initial: Volume.State(value: 10), reduceReturning: Volume.reduce, feedbacks: Volume.feedbacks)
  /// ```
  ///
  /// - Parameters:
  ///   - initial: the state the system starts in.
  ///   - reduce: the system's reducer.
  ///   - feedbacks: the system's feedbacks.
  ///   - clock: the test clock; make it first when fakes need it too.
  ///   - exhaustivity: whether every change must be asserted.
  ///   - reporter: where failures go; by default the running test framework.
  ///   - fileID: where the test system is made: failures found when it is
  ///     released without ``finish(fileID:filePath:line:column:)`` point here.
  ///   - filePath: the same place's full path.
  ///   - line: the same place's line.
  ///   - column: the same place's column.
  public convenience init(
    initial: State,
    reduceReturning reduce: @escaping @Sendable (State, Event) -> State,
    feedbacks: [Feedback<State, Event>] = [],
    clock: TestClock = TestClock(),
    exhaustivity: Exhaustivity = .on,
    reporter: TestFailureReporter = .automatic,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    self.init(
      initial: initial, reduce: { state, event in state = reduce(state, event) }, feedbacks: feedbacks,
      clock: clock, exhaustivity: exhaustivity, reporter: reporter,
      fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Tests a system whose reducer changes the state in place.
  ///
  /// ```swift
  /// let search = TestSystem(initial: Search.State(), reduce: Search.reduce, feedbacks: Search.feedbacks(api: api))
  /// ```
  public convenience init(
    initial: State,
    reduce: @escaping @Sendable (inout State, Event) -> Void,
    feedbacks: [Feedback<State, Event>] = [],
    clock: TestClock = TestClock(),
    exhaustivity: Exhaustivity = .on,
    reporter: TestFailureReporter = .automatic,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    self.init(
      clock: clock, exhaustivity: exhaustivity, reporter: reporter,
      fileID: fileID, filePath: filePath, line: line, column: column
    ) { environment, monitor in
      System(
        initial: initial, reduce: reduce, feedbacks: feedbacks, environment: environment, monitor: monitor)
    }
  }

  deinit {
    if !isFinished { finish(at: creationSite) }
  }

  /// The system's current state.
  public var state: State { system.state }

  /// The time on the test clock.
  public var now: TestClock.Instant { clock.now }

  /// The effects started and not ended yet, in the order they started:
  /// which feedback, for which query or key, started when.
  ///
  /// ```swift
  /// #expect(search.effectsInFlight.map(\.trigger) == ["https://api.example/search?q=swift"])
  /// ```
  public var effectsInFlight: [EffectInFlight] {
    absorb()
    return inFlight
  }
}
