import CustomDump
import FeedbackLoop

/// What a system under test did, in order, each at its time on the test
/// clock: the events it reduced with the state before and after, and the
/// effects it started, cancelled and finished.
///
/// A ``TestSystem`` records it as the test runs, and prints it with every
/// failure, so that the failure comes with the story that led to it:
///
/// ```text
/// Timeline (test clock time, what happened):
///   0s     started in
///              HUD.State(
///                isVisible: false,
///                interactions: 0
///              )
///   0s     sent HUD.Event.tap
///              HUD.State(
///            −   isVisible: false,
///            +   isVisible: true,
///            −   interactions: 0
///            +   interactions: 1
///              )
///   0s     effect started: #0 hide after the last interaction effect 1 for 1
///   3s     received HUD.Event.hide from #0 hide after the last interaction effect 1 for 1
///              HUD.State(
///            −   isVisible: true,
///            +   isVisible: false,
///                interactions: 1
///              )
///   3s     effect finished: #0 hide after the last interaction effect 1 for 1
/// ```
///
/// A failure shows the last 100 entries.
///
/// Read it in a test through ``TestSystem/timeline``:
///
/// ```swift
/// #expect(hud.timeline.entries.count == 4)
/// print(hud.timeline)
/// ```
public struct Timeline<State: Sendable, Event: Sendable>: Sendable, CustomStringConvertible {
  /// One thing that happened, at a time on the test clock.
  public struct Entry: Sendable {
    /// When it happened, on the test clock.
    public let time: TestClock.Instant
    /// What happened.
    public let kind: Kind

    /// An entry; the test system records these.
    public init(time: TestClock.Instant, kind: Kind) {
      self.time = time
      self.kind = kind
    }
  }

  /// What happened.
  ///
  /// It grows: a later version may add a case. End a `switch` over it with
  /// `default:` or `@unknown default:`, so that a new case does not break your
  /// build.
  public enum Kind: Sendable {
    /// The system started in this state.
    case started(State)
    /// The test sent an event; it was reduced from one state to another.
    case sent(Event, from: State, to: State)
    /// An effect or an input produced an event; it was reduced.
    case received(Event, source: EventSource, from: State, to: State)
    /// A feedback queued an effect behind its running one.
    case effectQueued(EffectID)
    /// A feedback started an effect.
    case effectStarted(EffectID)
    /// An effect was cancelled (replaced, its query became `nil`, or the
    /// system stopped).
    case effectCancelled(EffectID)
    /// An effect ended on its own.
    case effectFinished(EffectID)
    /// An effect threw an error that no `catch` mapped to an event.
    case effectFailed(EffectID, error: String)
    /// An event never reached the reducer, and why (its effect was
    /// cancelled, for instance).
    case eventDiscarded(Event, reason: DiscardReason)
    /// The system stopped.
    case stopped
  }

  /// Every entry, in the order things happened.
  public private(set) var entries: [Entry] = []

  /// An empty timeline.
  public init() {}

  /// Appends an entry.
  public mutating func append(_ entry: Entry) {
    entries.append(entry)
  }

  public var description: String { render(last: nil) }

  /// The timeline as text, limited to its last `count` entries when given.
  func render(last count: Int?) -> String {
    var lines = ["Timeline (test clock time, what happened):"]
    if entries.isEmpty { lines.append("  (nothing happened)") }
    var shown = entries[...]
    if let count, entries.count > count {
      shown = entries.suffix(count)
      lines.append("  (\(entries.count - count) earlier entries not shown)")
    }
    for entry in shown {
      let time = TimeFormat.short(entry.time.offset)
      let prefix = "  " + time + String(repeating: " ", count: max(1, 7 - time.count))
      let body = Self.describe(entry.kind)
      lines.append(prefix + body.first!)
      let indent = String(repeating: " ", count: prefix.count)
      for line in body.dropFirst() { lines.append(indent + line) }
    }
    return lines.joined(separator: "\n")
  }

  private static func describe(_ kind: Kind) -> [String] {
    switch kind {
    case .started(let state):
      return ["started in"] + String(customDumping: state).split(separator: "\n").map { "    " + $0 }
    case .sent(let event, let before, let after):
      return ["sent \(EventFormat.describe(event))"] + change(from: before, to: after)
    case .received(let event, let source, let before, let after):
      return ["received \(EventFormat.describe(event)) from \(source)"] + change(from: before, to: after)
    case .effectQueued(let id):
      return ["effect queued: \(id)"]
    case .effectStarted(let id):
      return ["effect started: \(id)"]
    case .effectCancelled(let id):
      return ["effect cancelled: \(id)"]
    case .effectFinished(let id):
      return ["effect finished: \(id)"]
    case .effectFailed(let id, let error):
      return ["effect failed: \(id), with an unmapped error: \(error)"]
    case .eventDiscarded(let event, let reason):
      return ["event discarded: \(EventFormat.describe(event)), \(describe(reason))"]
    case .stopped:
      return ["stopped"]
    }
  }

  private static func describe(_ reason: DiscardReason) -> String {
    if let id = reason.cancelledEffect { return "its effect was cancelled (\(id))" }
    if let why = reason.missingChild { return "no such child (\(why))" }
    switch reason {
    case .systemStopped: return "the system had stopped"
    case .bufferFull: return "the event buffer was full"
    default: return "\(reason)"
    }
  }

  private static func change(from before: State, to after: State) -> [String] {
    guard let difference = diff(before, after, format: .proportional) else {
      return ["  (state unchanged)"]
    }
    return difference.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }
  }
}
