import FeedbackLoop
import FeedbackLoopScenarios
import Synchronization

/// What one run of a system shows: its states, and the triggers of the
/// effects it started and cancelled, in order. Two spellings of one
/// feedback give equal traces for the same events.
struct Trace: Equatable, CustomStringConvertible {
  var states: [String] = []
  var started: [String] = []
  var cancelled: [String] = []

  var description: String { "states \(states), started \(started), cancelled \(cancelled)" }

  /// The same trace with the effects in a set order: a keyed feedback starts
  /// the requests of one state in the order of its collection, which a
  /// `Set` or a `Dictionary` does not fix.
  var sortingEffects: Trace {
    Trace(states: states, started: started.sorted(), cancelled: cancelled.sorted())
  }
}

/// Records a system's states and its effects' starts and cancellations.
final class TraceRecorder<State: Sendable, Event: Sendable>: Sendable {
  private let trace = Mutex(Trace())

  var monitor: SystemMonitor<State, Event> {
    SystemMonitor { [self] activity in
      trace.withLock { trace in
        switch activity {
        case .started(let initial): trace.states.append("\(initial)")
        case .reduced(_, _, let to, _): trace.states.append("\(to)")
        case .effectStarted(let id): trace.started.append(id.trigger ?? "-")
        case .effectCancelled(let id): trace.cancelled.append(id.trigger ?? "-")
        default: break
        }
      }
    }
  }

  var recorded: Trace { trace.withLock { $0 } }
}

/// Runs `feedback` from `initial` through `events` on a test clock, one
/// second between events and five at the end, and returns what it showed.
func trace<State: Sendable, Event: Sendable>(
  _ feedback: Feedback<State, Event>, initial: State, reduce: @escaping @Sendable (State, Event) -> State,
  events: [Event]
) -> Trace {
  let harness = Harness()
  let recorder = TraceRecorder<State, Event>()
  let system = System(
    initial: initial, reduceReturning: reduce, feedbacks: [feedback], environment: harness.environment,
    monitor: recorder.monitor)
  harness.settle()
  for event in events {
    system.send(event)
    harness.settle()
    harness.clock.advance(by: .seconds(1))
  }
  harness.clock.advance(by: .seconds(5))
  harness.settle()
  system.stop()
  return recorder.recorded
}
