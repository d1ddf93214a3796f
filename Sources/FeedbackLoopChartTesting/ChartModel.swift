import FeedbackLoop
import FeedbackLoopDeclarative

/// A statechart with the events a test may send: the model the tests are
/// derived from. Events with payloads are given as values (one per payload
/// worth trying); time is a step of its own (``ChartStep/wait(_:)``).
///
/// The model explores the chart by its reducer, configuration by
/// configuration (`ChartConfigurationID`: active states and history; the
/// context of the first path to reach a configuration is kept), guards
/// evaluated on that context.
///
/// ```swift
/// let model = ChartModel(chart: Player.chart, context: Player(), events: [.loaded, .play, .pause, .tap])
/// model.shortestPaths()["paused"]   // [send(loaded), send(pause)]
/// ```
public struct ChartModel<Context: Sendable, Event: Sendable>: Sendable {
  public let chart: Statechart<Context, Event>
  public let context: Context
  public let events: [Event]
  /// The most states an exploration visits.
  public var configurationLimit = 10_000
  /// What of the context tells two states apart, besides their
  /// configuration and pending delays; `nil` (the default) keeps the
  /// context of the first path to a configuration. Give it when a guard
  /// reads the context: a countdown's seconds, say.
  ///
  /// ```swift
  /// model.distinguishing = { $0.secondsLeft }
  /// ```
  public var distinguishing: (@Sendable (Context) -> AnyHashable)?

  public init(chart: Statechart<Context, Event>, context: Context, events: [Event]) {
    self.chart = chart
    self.context = context
    self.events = events
  }

  /// Every step worth trying from any state: each event, then waiting.
  var alphabet: [ChartStep<Event>] { events.map { .send($0) } + [.wait(.zero)] }

  /// The model's first state.
  func initialTimedState() -> TimedState<Context> {
    var state = TimedState(chart: chart.initialState(context: context))
    state.refreshDelays(chart)
    return state
  }

  /// `step` applied to `state`, a wait resolved to the time it lets pass,
  /// and the transitions it took; `nil` for a wait with nothing pending.
  func take(_ step: ChartStep<Event>, from state: TimedState<Context>) -> (
    step: ChartStep<Event>, state: TimedState<Context>, taken: [Int]
  )? {
    let taken = Locked<[Int]>([])
    let observed = chart.observingTransitions { index in taken.withLock { $0.append(index) } }
    var next = state
    guard let resolved = observed.apply(step, to: &next) else { return nil }
    return (resolved, next, taken.withLock { $0 })
  }

  /// A state reached, with the shortest path to it and the transitions
  /// that path takes.
  struct Reached {
    let state: TimedState<Context>
    let path: [ChartStep<Event>]
    let taken: Set<Int>
  }

  /// Breadth first over the model's states; calls `edge` for every step
  /// tried from every state reached.
  func explore(
    _ edge: (_ from: Reached, _ step: ChartStep<Event>, _ taken: [Int]) -> Void = { _, _, _ in }
  ) -> [Reached] {
    let initial = initialTimedState()
    var reached = [Reached(state: initial, path: [], taken: [])]
    var seen: Set<TimedState<Context>.Key> = [initial.key(chart, context: distinguishing)]
    var position = 0
    while position < reached.count && reached.count < configurationLimit {
      let current = reached[position]
      position += 1
      for step in alphabet {
        guard let (resolved, next, taken) = take(step, from: current.state) else { continue }
        edge(current, resolved, taken)
        if seen.insert(next.key(chart, context: distinguishing)).inserted {
          reached.append(
            Reached(state: next, path: current.path + [resolved], taken: current.taken.union(taken)))
        }
      }
    }
    return reached
  }

  /// The shortest path of steps from the initial configuration to each
  /// state the model reaches, by state id (a state never reached is
  /// absent: see the diagram's checks).
  public func shortestPaths() -> [String: [ChartStep<Event>]] {
    var paths: [String: [ChartStep<Event>]] = [:]
    for reached in explore() {
      for id in reached.state.chart.activeStates where paths[id] == nil { paths[id] = reached.path }
    }
    return paths
  }

  /// The simple paths (no state of the model visited twice) from the
  /// first state reached in which `source` is active to each state in
  /// which `target` is, at most `maximumLength` steps and `limit` paths.
  public func simplePaths(
    from source: String, to target: String, maximumLength: Int = 8, limit: Int = 1_000
  ) -> [[ChartStep<Event>]] {
    guard let start = explore().first(where: { $0.state.chart.isActive(source) }) else { return [] }
    var paths: [[ChartStep<Event>]] = []
    var onPath: Set<TimedState<Context>.Key> = [start.state.key(chart, context: distinguishing)]
    var steps: [ChartStep<Event>] = []
    func search(_ state: TimedState<Context>) {
      if paths.count >= limit { return }
      if state.chart.isActive(target) && !steps.isEmpty {
        paths.append(steps)
        return
      }
      if steps.count >= maximumLength { return }
      for step in alphabet {
        guard let (resolved, next, _) = take(step, from: state),
          onPath.insert(next.key(chart, context: distinguishing)).inserted
        else { continue }
        steps.append(resolved)
        search(next)
        steps.removeLast()
        onPath.remove(next.key(chart, context: distinguishing))
      }
    }
    search(start.state)
    return paths
  }

  /// Paths from the initial configuration that together take every
  /// transition the model can take at least once: for each transition, the
  /// shortest path ending with a step that takes it; then the longest
  /// first, each kept if it takes a transition the kept ones do not.
  public func transitionTour() -> [[ChartStep<Event>]] {
    var candidates: [(path: [ChartStep<Event>], taken: Set<Int>)] = []
    var covered: Set<Int> = []
    _ = explore { from, step, taken in
      let new = Set(taken).subtracting(covered)
      guard !new.isEmpty else { return }
      covered.formUnion(new)
      candidates.append((from.path + [step], from.taken.union(taken)))
    }
    var kept: [[ChartStep<Event>]] = []
    var keptTaken: Set<Int> = []
    for candidate in candidates.sorted(by: { $0.path.count > $1.path.count })
    where !candidate.taken.isSubset(of: keptTaken) {
      kept.append(candidate.path)
      keptTaken.formUnion(candidate.taken)
    }
    return kept
  }
}
