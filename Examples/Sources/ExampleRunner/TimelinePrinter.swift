import FeedbackLoop
import Synchronization

/// Prints what a running system does, as it happens, built on the core's
/// `SystemMonitor`: each event and the state it produced, and each effect
/// started, cancelled, finished or failed, with the time.
///
/// ```text
///    0.000s  ● started      count 0
///    0.000s  ▶ increment    from outside
///            ⇒ count 1
///    3.000s  ◀ hideHUD      from hide the HUD #1
///            ⇒ 0:03 playing · HUD hidden · no skip button
///    3.000s    ✓ finished   hide the HUD #1
/// ```
struct TimelinePrinter<State: Sendable & Equatable, Event: Sendable>: Sendable {
  /// Where the lines go.
  let console: Console
  /// The time since the session started, on the session's clock.
  let now: @Sendable () -> Duration
  /// One line for a state: what a person would see.
  let describeState: @Sendable (State) -> String
  /// One line for an event.
  let describeEvent: @Sendable (Event) -> String
  /// Whether routine activity is hidden now.
  var verbosity = Verbosity(quiet: false)
  /// Which activity is routine (a clock tick, a timer restarted): hidden
  /// while the timeline is quiet.
  var isRoutine: @Sendable (SystemActivity<State, Event>) -> Bool = { _ in false }

  /// The legend printed before a timeline.
  static var legend: [String] {
    [
      "  ▶ an event from outside (a key, a button, the script)   ◀ an event an effect sent   ⇒ the state it produced",
      "  + effect started   … queued   × cancelled   ✓ finished   ! failed   - event discarded",
    ]
  }

  /// An effect's end waiting for the event it sent (see ``ordered(_:)``).
  let effectEnds = EffectEnds()

  /// The monitor to give the system.
  var monitor: SystemMonitor<State, Event> {
    SystemMonitor { activity in console.lines(self.ordered(activity)) }
  }

  /// The lines of `activity`, in one order for every effect: the events an
  /// effect sent, then its end. The loop reports an effect's end before its
  /// last event when that event had to wait for the loop (an effect that sends
  /// while the loop is busy), after it otherwise; so the end of an effect
  /// that has sent no event yet waits for the next activity, and follows the
  /// event if that activity is one from the same effect.
  func ordered(_ activity: SystemActivity<State, Event>) -> [String] {
    let lines = lines(for: activity) ?? []
    return effectEnds.withLock { ends in
      var output: [String] = []
      if let held = ends.held {
        ends.held = nil
        if case .reduced(_, _, _, .effect(let id)) = activity, id == held.id { return lines + held.lines }
        output = held.lines
      }
      switch activity {
      case .reduced(_, _, _, .effect(let id)):
        ends.sentAnEvent.insert(id)
      case .effectFinished(let id):
        if ends.sentAnEvent.remove(id) == nil {
          ends.held = (id, lines)
          return output
        }
      case .effectCancelled(let id), .effectFailed(let id, _):
        ends.sentAnEvent.remove(id)
      default:
        break
      }
      return output + lines
    }
  }

  /// A line of the session's own, at the current time: narration, or what
  /// the server answered.
  func note(_ label: String, _ text: String) {
    console.line("\(TimeFormat.stamp(now()))  \(label.padding(12)) \(text)")
  }

  func lines(for activity: SystemActivity<State, Event>) -> [String]? {
    if verbosity.isQuiet, isRoutine(activity) { return nil }
    let time = TimeFormat.stamp(now())
    switch activity {
    case .started(let initial):
      return ["\(time)  ● started      \(describeState(initial))"]
    case .reduced(let event, let from, let to, let source):
      let origin: String
      switch source {
      case .external: origin = "▶ \(describeEvent(event))"
      case .feedback(let id): origin = "▶ \(describeEvent(event))   from \(id.name)"
      case .effect(let id): origin = "◀ \(describeEvent(event))   from \(Self.name(of: id))"
      }
      let state = from == to ? "⇒ (unchanged) \(describeState(to))" : "⇒ \(describeState(to))"
      return ["\(time)  \(origin)", "\(TimeFormat.blank)  \(state)"]
    case .effectQueued(let id):
      return ["\(time)    … queued     \(Self.name(of: id, withTrigger: true))"]
    case .effectStarted(let id):
      return ["\(time)    + started    \(Self.name(of: id, withTrigger: true))"]
    case .effectCancelled(let id):
      return ["\(time)    × cancelled  \(Self.name(of: id, withTrigger: true))"]
    case .effectFinished(let id):
      return ["\(time)    ✓ finished   \(Self.name(of: id))"]
    case .effectFailed(let id, let error):
      return ["\(time)    ! failed     \(Self.name(of: id)): \(error)"]
    case .eventDiscarded(let event, let reason):
      return ["\(time)    - discarded  \(describeEvent(event)): \(Self.describe(reason))"]
    case .stopped:
      return ["\(time)  ■ stopped: every effect is cancelled"]
    @unknown default:
      return nil
    }
  }

  /// `page request #2 for "star" page 1`: the feedback's name, the effect's
  /// number, and what started it when that is short enough to read.
  static func name(of id: EffectID, withTrigger: Bool = false) -> String {
    let name = "\(id.feedback.name) #\(id.number)"
    guard withTrigger, let trigger = id.trigger, trigger.count <= 40, !trigger.contains("\n") else { return name }
    return "\(name) for \(trigger)"
  }

  private static func describe(_ reason: DiscardReason) -> String {
    if let id = reason.cancelledEffect { return "its effect, \(name(of: id)), was cancelled" }
    if let why = reason.missingChild { return "no such child (\(why))" }
    switch reason {
    case .systemStopped: return "the system had stopped"
    case .bufferFull: return "the event buffer was full"
    default: return "\(reason)"
    }
  }
}

/// The effects that sent an event and have not ended, and the end line held
/// back (see ``TimelinePrinter/ordered(_:)``).
final class EffectEnds: Sendable {
  struct Ends {
    var sentAnEvent: Set<EffectID> = []
    var held: (id: EffectID, lines: [String])?
  }

  private let ends = Mutex(Ends())

  func withLock<Result>(_ body: (inout Ends) -> Result) -> Result {
    ends.withLock { body(&$0) }
  }
}

extension String {
  /// The string, padded with spaces to `width` characters.
  func padding(_ width: Int) -> String {
    count >= width ? self : self + String(repeating: " ", count: width - count)
  }
}
