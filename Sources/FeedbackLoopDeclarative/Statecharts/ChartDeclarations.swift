import FeedbackLoop

/// A state of a statechart: atomic when it declares no child state,
/// compound when it does (then `initial` names the child entered by
/// default, and must be given).
///
/// ```swift
/// ChartState("loaded", initial: "playing") {
///   Transition(on: .stop, to: "stopped")
///   ChartState("playing") { Transition(on: .pause, to: "paused") }
///   ChartState("paused") { Transition(on: .play, to: "playing") }
///   HistoryState("resume")
/// }
/// ```
public struct ChartState<Context: Sendable, Event: Sendable>: Sendable {
  let element: ChartElement<Context, Event>

  public init(
    _ id: String,
    initial: String? = nil,
    @ChartBuilder<Context, Event> _ content: () -> [ChartElement<Context, Event>] = { [] }
  ) {
    element = .state(id, initial: initial, content)
  }
}

/// A parallel state: every child state is a region, all active at once,
/// each reacting to every event.
///
/// ```swift
/// ParallelState("screen") {
///   ChartState("video", initial: "playing") { ... }
///   ChartState("hud", initial: "visible") { ... }
/// }
/// ```
public struct ParallelState<Context: Sendable, Event: Sendable>: Sendable {
  let element: ChartElement<Context, Event>

  public init(_ id: String, @ChartBuilder<Context, Event> _ content: () -> [ChartElement<Context, Event>]) {
    element = .parallel(id, content)
  }
}

/// A final state: entering it raises the "done" event of its parent
/// (``Transition/init(whenDoneTo:guard:_:action:)``); a final child of the
/// chart itself finishes the chart. It may have entry and exit actions; a
/// transition out of it is a declaration error.
///
/// ```swift
/// FinalState("over")
/// ```
public struct FinalState<Context: Sendable, Event: Sendable>: Sendable {
  let element: ChartElement<Context, Event>

  public init(_ id: String, @ChartBuilder<Context, Event> _ content: () -> [ChartElement<Context, Event>] = { [] }) {
    element = .final(id, content)
  }
}

/// A history pseudo-state of the enclosing state: a transition to it
/// resumes what was active when the enclosing state was last left
/// (shallow: the direct child, whose own children are entered by default;
/// deep: every active descendant). Before the first exit it goes to
/// `default`, or to the enclosing state's initial child.
///
/// ```swift
/// HistoryState("resume", deep: true)
/// ```
public struct HistoryState<Context: Sendable, Event: Sendable>: Sendable {
  let element: ChartElement<Context, Event>

  public init(_ id: String, deep: Bool = false, default target: String? = nil) {
    element = .history(id, deep: deep, default: target)
  }
}

/// An action run in the reducer when the state is entered.
///
/// ```swift
/// OnEntry { player in player.interactions += 1 }
/// ```
public struct OnEntry<Context: Sendable, Event: Sendable>: Sendable {
  let element: ChartElement<Context, Event>

  public init(_ action: @escaping @Sendable (inout Context) -> Void) { element = .onEntry(action) }
}

/// An action run in the reducer when the state is left.
///
/// ```swift
/// OnExit { player in player.lastPosition = player.position }
/// ```
public struct OnExit<Context: Sendable, Event: Sendable>: Sendable {
  let element: ChartElement<Context, Event>

  public init(_ action: @escaping @Sendable (inout Context) -> Void) { element = .onExit(action) }
}

/// An effect started when the state is entered and cancelled when it is
/// left; the events it sends after it was cancelled are dropped (G4).
///
/// ```swift
/// Activity { player in .task { .loaded(try await api.load(player.url)) } catch: { _ in .failed } }
/// ```
public struct Activity<Context: Sendable, Event: Sendable>: Sendable {
  let element: ChartElement<Context, Event>

  public init(_ effect: @escaping @Sendable (Context) -> Effect<Event>) { element = .activity(effect) }
}

/// A transition of the enclosing state: on an event, after a delay, or when
/// the state is done; guarded or not; to a target, or targetless (`to: nil`:
/// its action runs, no state is left or entered).
///
/// ```swift
/// Transition(on: .pause, to: "paused")
/// Transition(on: .seek, to: "buffering", guard: "seekable") { player, _ in player.isSeekable }
/// Transition(on: .volumeUp, action: { player, _ in player.volume += 1 })
/// Transition(after: .seconds(3), to: "hidden")
/// Transition(whenDoneTo: "movie")
/// ```
public struct Transition<Context: Sendable, Event: Sendable>: Sendable {
  let element: ChartElement<Context, Event>

  /// A transition on the events `matches` accepts, named `name` in the
  /// diagrams (for events with payloads).
  public init(
    on name: String,
    matching matches: @escaping @Sendable (Event) -> Bool,
    to target: String? = nil,
    guard guardName: String? = nil,
    _ condition: (@Sendable (Context, Event) -> Bool)? = nil,
    action: (@Sendable (inout Context, Event) -> Void)? = nil
  ) {
    element = .on(name, matching: matches, to: target, guard: guardName, condition, action: action)
  }

  /// After `delay` in the state, on the system's clock, go to `target`;
  /// cancelled when the state is left before. Leaving and entering the
  /// state again starts the delay again. `delay` is zero or more: the chart
  /// refuses a negative one with a ``ChartDeclarationError``.
  public init(
    after delay: Duration,
    to target: String?,
    guard guardName: String? = nil,
    _ condition: (@Sendable (Context) -> Bool)? = nil,
    action: (@Sendable (inout Context) -> Void)? = nil
  ) {
    element = .after(delay, to: target, guard: guardName, condition, action: action)
  }

  /// When a final child of this state is entered (for a parallel state:
  /// when every region is in a final state), go to `target`.
  public init(
    whenDoneTo target: String?,
    guard guardName: String? = nil,
    _ condition: (@Sendable (Context) -> Bool)? = nil,
    action: (@Sendable (inout Context) -> Void)? = nil
  ) {
    element = .onDone(to: target, guard: guardName, condition, action: action)
  }
}

extension Transition where Event: Equatable {
  /// A transition on `event`, named after it in the diagrams.
  public init(
    on event: Event,
    to target: String? = nil,
    guard guardName: String? = nil,
    _ condition: (@Sendable (Context, Event) -> Bool)? = nil,
    action: (@Sendable (inout Context, Event) -> Void)? = nil
  ) {
    element = .on(event, to: target, guard: guardName, condition, action: action)
  }
}
