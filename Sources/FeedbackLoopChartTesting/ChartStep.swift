import FeedbackLoopDeclarative

/// One step of a path through a statechart: an event sent, or time let
/// pass until the next delayed transition expires.
///
/// Closed for good: no version adds a case.
public enum ChartStep<Event: Sendable>: Sendable, CustomStringConvertible {
  /// Send this event.
  case send(Event)
  /// Let time pass until the pending delayed transition with the shortest
  /// delay (the first declared on a tie) expires; its delay is recorded.
  case wait(Duration)

  public var description: String {
    switch self {
    case .send(let event): "send(\(event))"
    case .wait(let delay): "wait(\(delay))"
    }
  }
}

extension ChartStep: Equatable where Event: Equatable {}

/// A state of the model: the chart's state, the model's clock, and when
/// each pending delay started, so that waiting fires the delays a test
/// clock would fire, at the same instants.
struct TimedState<Context: Sendable>: Sendable {
  var chart: ChartSnapshot<Context>
  var now: Duration = .zero
  var started: [Int: DelayStart] = [:]

  struct DelayStart: Sendable, Hashable {
    let entry: UInt32
    let at: Duration
  }

  /// What the exploration tells apart: the configuration, and how long
  /// each pending delay has left.
  struct Key: Hashable {
    let configuration: ChartConfigurationID
    let remaining: [Int: Duration]
    let context: AnyHashable?
  }

  func key<Event>(
    _ chart: Statechart<Context, Event>, context contextKey: (@Sendable (Context) -> AnyHashable)?
  ) -> Key {
    var remaining: [Int: Duration] = [:]
    for delay in chart.pendingDelays(in: self.chart) {
      remaining[delay.transition] = (started[delay.transition]?.at ?? now) + delay.delay - now
    }
    return Key(
      configuration: self.chart.configurationID, remaining: remaining, context: contextKey?(self.chart.context))
  }

  /// Starts the clock of each delay whose state was entered since.
  mutating func refreshDelays<Event>(_ chart: Statechart<Context, Event>) {
    var refreshed: [Int: DelayStart] = [:]
    for delay in chart.pendingDelays(in: self.chart) {
      if let start = started[delay.transition], start.entry == delay.entry {
        refreshed[delay.transition] = start
      } else {
        refreshed[delay.transition] = DelayStart(entry: delay.entry, at: now)
      }
    }
    started = refreshed
  }
}

extension Statechart {
  /// Applies `step` to `state`: an event through the reducer; a wait moves
  /// the clock to the earliest deadline and fires every delay due then, in
  /// document order. Returns the step with the wait's duration, or `nil`
  /// for a wait with nothing pending.
  func apply(_ step: ChartStep<Event>, to state: inout TimedState<Context>) -> ChartStep<Event>? {
    switch step {
    case .send(let event):
      reduce(&state.chart, .event(event))
      state.refreshDelays(self)
      return step
    case .wait:
      let pending = pendingDelays(in: state.chart)
      let deadlines = pending.map { (state.started[$0.transition]?.at ?? state.now) + $0.delay }
      guard let earliest = deadlines.min() else { return nil }
      let waited = earliest - state.now
      state.now = earliest
      for (delay, deadline) in zip(pending, deadlines) where deadline == earliest {
        reduce(&state.chart, delay.expiry)
      }
      state.refreshDelays(self)
      return .wait(waited)
    }
  }
}
