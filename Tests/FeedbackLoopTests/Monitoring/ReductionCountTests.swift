import Testing

@testable import FeedbackLoop

/// A monitor that counts reductions instead of reading them
/// (`SystemMonitor.init(_:countingReductions:describingTriggers:)`, the
/// metrics monitor's):
/// the loop adds its reductions up and tells the monitor when it goes idle,
/// every 1,024 reductions of a longer drain, and before `.stopped`; it
/// reads no state for it.
@Suite(.runsLeftoverJobs) struct ReductionCountTests {
  enum Event: Sendable, Equatable { case add(Int), burst(Int) }

  /// What the monitor was told, in order.
  enum Told: Equatable, CustomStringConvertible {
    case counted(Int), reduced, effectStarted(trigger: String?), stopped

    var description: String {
      switch self {
      case .counted(let count): "counted \(count)"
      case .reduced: "reduced"
      case .effectStarted(let trigger): "effect started (trigger \(trigger ?? "nil"))"
      case .stopped: "stopped"
      }
    }
  }

  static func countingMonitor(_ log: Log<Told>) -> SystemMonitor<Int, Event> {
    SystemMonitor(
      { activity in
        switch activity {
        case .reduced: log.append(.reduced)
        case .effectStarted(let effect): log.append(.effectStarted(trigger: effect.trigger))
        case .stopped: log.append(.stopped)
        default: break
        }
      },
      countingReductions: { count in log.append(.counted(count)) }, describingTriggers: false)
  }

  static func reduce(_ state: Int, _ event: Event) -> Int {
    switch event {
    case .add(let amount): state + amount
    case .burst: state
    }
  }

  /// Answers `.burst(n)` with `n` sends of `.add(1)` from inside the loop,
  /// which are reduced in the same drain; stops the system from inside the
  /// loop when the state reaches `stopAt`.
  static func bursting(_ input: Input<Event>, stopAt: Int? = nil, _ system: Ref<System<Int, Event>>)
    -> [Feedback<Int, Event>]
  {
    [
      .input(input),
      .onEvent { event, _ in
        if case .burst(let count) = event { for _ in 0..<count { input.send(.add(1)) } }
        return .none
      },
      .observer({ { state in if state == stopAt { system.value?.stop() } } }),
    ]
  }

  @Test("each send to an idle system is counted before the send returns")
  func countedWhenIdle() {
    let log = Log<Told>()
    let system = System(initial: 0, reduceReturning: Self.reduce, feedbacks: [], monitor: Self.countingMonitor(log))
    for count in 1...3 {
      system.send(.add(1))
      #expect(log.entries.filter { $0 != .stopped } == Array(repeating: .counted(1), count: count))
    }
    system.stop()
    #expect(log.entries == [.counted(1), .counted(1), .counted(1), .stopped])
  }

  @Test("a burst drained at once is counted in batches of at most 1,024, the rest when the loop goes idle")
  func burstInBatches() {
    let log = Log<Told>()
    let system = System(
      initial: 0, reduceReturning: Self.reduce, feedbacks: Self.bursting(Input(), Ref()),
      monitor: Self.countingMonitor(log))
    system.send(.burst(3_000))
    #expect(system.state == 3_000)
    // The burst's own event, then 3,000 more: 3,001 in one drain.
    #expect(log.entries == [.counted(1_024), .counted(1_024), .counted(953)])
    system.stop()
  }

  @Test("G9 the reductions of the drain that stops are counted before .stopped")
  func countedBeforeStopped() {
    let log = Log<Told>()
    let ref = Ref<System<Int, Event>>()
    let system = System(
      initial: 0, reduceReturning: Self.reduce, feedbacks: Self.bursting(Input(), stopAt: 5, ref),
      monitor: Self.countingMonitor(log))
    ref.value = system
    system.send(.burst(10))
    // The burst, then five additions; the stop comes in the fifth state's
    // pass, and the rest are discarded.
    #expect(system.state == 5)
    #expect(log.entries == [.counted(6), .stopped])
  }

  @Test("a counting monitor reads no state: an effect's trigger is not described for it")
  func readsNoState() {
    let log = Log<Told>()
    let feedbacks: [Feedback<Int, Event>] = [Feedback.query({ $0 == 1 ? 1 : nil }) { _ in .run { _ in } }]
    let system = System(
      initial: 0, reduceReturning: Self.reduce, feedbacks: feedbacks, monitor: Self.countingMonitor(log))
    system.send(.add(1))
    system.stop()
    #expect(log.entries.first == .effectStarted(trigger: nil))

    // The same system with a monitor that reads states describes it.
    let reading = Log<String?>()
    let described = System(
      initial: 0, reduceReturning: Self.reduce, feedbacks: feedbacks,
      monitor: SystemMonitor { activity in
        if case .effectStarted(let effect) = activity { reading.append(effect.trigger) }
      })
    described.send(.add(1))
    described.stop()
    #expect(reading.entries == ["1"])
  }

  @Test("G10 combined with another monitor, a counting monitor gets each reduction as .reduced, and no count")
  func combinedGetsReduced() {
    let log = Log<Told>()
    let other = Log<String>()
    let system = System(
      initial: 0, reduceReturning: Self.reduce, feedbacks: [],
      monitor: .combining([
        Self.countingMonitor(log),
        SystemMonitor { activity in if case .reduced(_, _, let to, _) = activity { other.append("\(to)") } },
      ]))
    system.send(.add(1))
    system.send(.add(2))
    system.stop()
    #expect(log.entries == [.reduced, .reduced, .stopped])
    #expect(other.entries == ["1", "3"])
  }
}
