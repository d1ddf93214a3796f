import FeedbackLoop

/// One line of a statechart's declaration: a state, a transition, an entry
/// or exit action, or an activity. ``ChartBuilder`` collects them.
public struct ChartElement<Context: Sendable, Event: Sendable>: Sendable {
  enum Kind: Sendable {
    case state(DeclaredState<Context, Event>)
    case transition(DeclaredTransition<Context, Event>)
    case entry(@Sendable (inout Context) -> Void)
    case exit(@Sendable (inout Context) -> Void)
    case activity(@Sendable (Context) -> Effect<Event>)
  }
  let kind: Kind
}

/// What a state is made of once declared.
struct DeclaredState<Context: Sendable, Event: Sendable>: Sendable {
  enum Kind: Sendable, Equatable {
    case plain
    case parallel
    case final
    case history(deep: Bool)
  }
  let id: String
  let kind: Kind
  let initial: String?
  let historyDefault: String?
  let elements: [ChartElement<Context, Event>]
}

/// What triggers a transition.
enum DeclaredTrigger<Event: Sendable>: Sendable {
  case event(name: String, matches: @Sendable (Event) -> Bool)
  case after(Duration)
  case done
}

/// A transition as declared, its target by name.
struct DeclaredTransition<Context: Sendable, Event: Sendable>: Sendable {
  let trigger: DeclaredTrigger<Event>
  let guardName: String?
  let condition: (@Sendable (Context, Event?) -> Bool)?
  let target: String?
  let action: (@Sendable (inout Context, Event?) -> Void)?
}

/// Collects a state's content: child states, transitions, entry and exit
/// actions, activities.
@resultBuilder
public enum ChartBuilder<Context: Sendable, Event: Sendable> {
  public static func buildExpression(_ state: ChartState<Context, Event>) -> [ChartElement<Context, Event>] {
    [state.element]
  }
  public static func buildExpression(_ state: ParallelState<Context, Event>) -> [ChartElement<Context, Event>] {
    [state.element]
  }
  public static func buildExpression(_ state: FinalState<Context, Event>) -> [ChartElement<Context, Event>] {
    [state.element]
  }
  public static func buildExpression(_ state: HistoryState<Context, Event>) -> [ChartElement<Context, Event>] {
    [state.element]
  }
  public static func buildExpression(_ transition: Transition<Context, Event>) -> [ChartElement<Context, Event>] {
    [transition.element]
  }
  public static func buildExpression(_ action: OnEntry<Context, Event>) -> [ChartElement<Context, Event>] {
    [action.element]
  }
  public static func buildExpression(_ action: OnExit<Context, Event>) -> [ChartElement<Context, Event>] {
    [action.element]
  }
  public static func buildExpression(_ activity: Activity<Context, Event>) -> [ChartElement<Context, Event>] {
    [activity.element]
  }
  public static func buildBlock(_ parts: [ChartElement<Context, Event>]...) -> [ChartElement<Context, Event>] {
    parts.flatMap { $0 }
  }
  public static func buildOptional(_ part: [ChartElement<Context, Event>]?) -> [ChartElement<Context, Event>] {
    part ?? []
  }
  public static func buildEither(first part: [ChartElement<Context, Event>]) -> [ChartElement<Context, Event>] {
    part
  }
  public static func buildEither(second part: [ChartElement<Context, Event>]) -> [ChartElement<Context, Event>] {
    part
  }
  public static func buildArray(_ parts: [[ChartElement<Context, Event>]]) -> [ChartElement<Context, Event>] {
    parts.flatMap { $0 }
  }
}

extension ChartElement {
  /// A state: atomic when it declares no child state, compound when it does
  /// (then `initial` names the child entered by default, and must be given).
  ///
  /// ```swift
  /// .state("loaded", initial: "playing") {
  ///   .state("playing") { .on(.pause, to: "paused") }
  ///   .state("paused") { .on(.play, to: "playing") }
  ///   .history("resume")
  /// }
  /// ```
  static func state(
    _ id: String,
    initial: String? = nil,
    @ChartBuilder<Context, Event> _ content: () -> [ChartElement] = { [] }
  ) -> ChartElement {
    ChartElement(
      kind: .state(DeclaredState(id: id, kind: .plain, initial: initial, historyDefault: nil, elements: content())))
  }

  /// A parallel state: every child state is a region, all active at once,
  /// each reacting to every event.
  ///
  /// ```swift
  /// .parallel("screen") {
  ///   .state("video", initial: "playing") { ... }
  ///   .state("hud", initial: "visible") { ... }
  /// }
  /// ```
  static func parallel(
    _ id: String,
    @ChartBuilder<Context, Event> _ content: () -> [ChartElement]
  ) -> ChartElement {
    ChartElement(
      kind: .state(DeclaredState(id: id, kind: .parallel, initial: nil, historyDefault: nil, elements: content())))
  }

  /// A final state: entering it raises the "done" event of its parent
  /// (``onDone(to:guard:action:)``); a final child of the chart itself
  /// finishes the chart. It may have entry and exit actions, no transitions.
  ///
  /// ```swift
  /// .final("finished")
  /// ```
  static func final(
    _ id: String,
    @ChartBuilder<Context, Event> _ content: () -> [ChartElement] = { [] }
  ) -> ChartElement {
    ChartElement(
      kind: .state(DeclaredState(id: id, kind: .final, initial: nil, historyDefault: nil, elements: content())))
  }

  /// A history pseudo-state of the enclosing state: a transition to it
  /// resumes the children that were active when the enclosing state was
  /// last left (`deep: false`: the direct child, entered by default below;
  /// `deep: true`: every active descendant). Before the first exit it goes
  /// to `default`, or to the enclosing state's initial child.
  ///
  /// ```swift
  /// .history("resume", deep: true)
  /// ```
  static func history(_ id: String, deep: Bool = false, default target: String? = nil) -> ChartElement {
    ChartElement(
      kind: .state(
        DeclaredState(id: id, kind: .history(deep: deep), initial: nil, historyDefault: target, elements: [])))
  }

  /// An action run when the state is entered, in the reducer.
  static func onEntry(_ action: @escaping @Sendable (inout Context) -> Void) -> ChartElement {
    ChartElement(kind: .entry(action))
  }

  /// An action run when the state is left, in the reducer.
  static func onExit(_ action: @escaping @Sendable (inout Context) -> Void) -> ChartElement {
    ChartElement(kind: .exit(action))
  }

  /// An effect started when the state is entered and cancelled when it is
  /// left; events it sends after it was cancelled are dropped (G4).
  ///
  /// ```swift
  /// .state("loading") {
  ///   .activity { context in .task { .event(.loaded(try await api.load(context.url))) } }
  /// }
  /// ```
  static func activity(_ effect: @escaping @Sendable (Context) -> Effect<Event>) -> ChartElement {
    ChartElement(kind: .activity(effect))
  }

  /// A transition on the events `matches` accepts, named `name` in the
  /// diagrams; `to: nil` makes it targetless (its action runs, no state is
  /// left or entered).
  static func on(
    _ name: String,
    matching matches: @escaping @Sendable (Event) -> Bool,
    to target: String? = nil,
    guard guardName: String? = nil,
    _ condition: (@Sendable (Context, Event) -> Bool)? = nil,
    action: (@Sendable (inout Context, Event) -> Void)? = nil
  ) -> ChartElement {
    ChartElement(
      kind: .transition(
        DeclaredTransition(
          trigger: .event(name: name, matches: matches),
          guardName: guardName ?? (condition == nil ? nil : "guard"),
          condition: condition.map { condition in { context, event in event.map { condition(context, $0) } ?? false } },
          target: target,
          action: action.map { action in { context, event in if let event { action(&context, event) } } })))
  }

  /// After `delay` in the state, on the system's clock, go to `target`;
  /// cancelled when the state is left before. Leaving and entering the
  /// state again starts the delay again.
  ///
  /// ```swift
  /// .state("visible") { .after(.seconds(3), to: "hidden") }
  /// ```
  static func after(
    _ delay: Duration,
    to target: String?,
    guard guardName: String? = nil,
    _ condition: (@Sendable (Context) -> Bool)? = nil,
    action: (@Sendable (inout Context) -> Void)? = nil
  ) -> ChartElement {
    ChartElement(
      kind: .transition(
        DeclaredTransition(
          trigger: .after(delay),
          guardName: guardName ?? (condition == nil ? nil : "guard"),
          condition: condition.map { condition in { context, _ in condition(context) } },
          target: target,
          action: action.map { action in { context, _ in action(&context) } })))
  }

  /// When a final child of this state is entered (for a parallel state:
  /// when every region is in a final state), go to `target`.
  ///
  /// ```swift
  /// .state("intro", initial: "counting") {
  ///   ...
  ///   .final("over")
  ///   .onDone(to: "movie")
  /// }
  /// ```
  static func onDone(
    to target: String?,
    guard guardName: String? = nil,
    _ condition: (@Sendable (Context) -> Bool)? = nil,
    action: (@Sendable (inout Context) -> Void)? = nil
  ) -> ChartElement {
    ChartElement(
      kind: .transition(
        DeclaredTransition(
          trigger: .done,
          guardName: guardName ?? (condition == nil ? nil : "guard"),
          condition: condition.map { condition in { context, _ in condition(context) } },
          target: target,
          action: action.map { action in { context, _ in action(&context) } })))
  }
}

extension ChartElement where Event: Equatable {
  /// A transition on `event`, named after it in the diagrams.
  ///
  /// ```swift
  /// .on(.pause, to: "paused")
  /// .on(.volumeUp, action: { context, _ in context.volume += 1 })
  /// .on(.seek, to: "buffering", guard: "seekable") { context, _ in context.isSeekable }
  /// ```
  static func on(
    _ event: Event,
    to target: String? = nil,
    guard guardName: String? = nil,
    _ condition: (@Sendable (Context, Event) -> Bool)? = nil,
    action: (@Sendable (inout Context, Event) -> Void)? = nil
  ) -> ChartElement {
    on(
      stateName(of: event), matching: { $0 == event }, to: target, guard: guardName, condition, action: action)
  }
}
