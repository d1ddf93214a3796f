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

/// What triggers a transition. An event given by value (`value`) lets the
/// compiled chart match it by `==` in the client's specialized reducer
/// rather than through the closure.
enum DeclaredTrigger<Event: Sendable>: Sendable {
  case event(name: String, matches: @Sendable (Event) -> Bool, value: Event?)
  case after(Duration)
  case done
}

/// A transition as declared, its target by name. Its code is kept as the
/// user wrote it (no wrapper closure), so that the reducer calls it
/// directly: an event's transition has the `event` forms, a delay's or a
/// done event's the `plain` ones.
struct DeclaredTransition<Context: Sendable, Event: Sendable>: Sendable {
  let trigger: DeclaredTrigger<Event>
  let guardName: String?
  let code: ChartTransitionCode<Context, Event>
  let target: String?
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

// The elements the public declarations (ChartDeclarations.swift) build.
extension ChartElement {
  static func state(
    _ id: String,
    initial: String? = nil,
    @ChartBuilder<Context, Event> _ content: () -> [ChartElement] = { [] }
  ) -> ChartElement {
    ChartElement(
      kind: .state(DeclaredState(id: id, kind: .plain, initial: initial, historyDefault: nil, elements: content())))
  }

  static func parallel(
    _ id: String,
    @ChartBuilder<Context, Event> _ content: () -> [ChartElement]
  ) -> ChartElement {
    ChartElement(
      kind: .state(DeclaredState(id: id, kind: .parallel, initial: nil, historyDefault: nil, elements: content())))
  }

  static func final(
    _ id: String,
    @ChartBuilder<Context, Event> _ content: () -> [ChartElement] = { [] }
  ) -> ChartElement {
    ChartElement(
      kind: .state(DeclaredState(id: id, kind: .final, initial: nil, historyDefault: nil, elements: content())))
  }

  static func history(_ id: String, deep: Bool = false, default target: String? = nil) -> ChartElement {
    ChartElement(
      kind: .state(
        DeclaredState(id: id, kind: .history(deep: deep), initial: nil, historyDefault: target, elements: [])))
  }

  static func onEntry(_ action: @escaping @Sendable (inout Context) -> Void) -> ChartElement {
    ChartElement(kind: .entry(action))
  }

  static func onExit(_ action: @escaping @Sendable (inout Context) -> Void) -> ChartElement {
    ChartElement(kind: .exit(action))
  }

  static func activity(_ effect: @escaping @Sendable (Context) -> Effect<Event>) -> ChartElement {
    ChartElement(kind: .activity(effect))
  }

  static func on(
    _ name: String,
    matching matches: @escaping @Sendable (Event) -> Bool,
    value: Event? = nil,
    to target: String? = nil,
    guard guardName: String? = nil,
    _ condition: (@Sendable (Context, Event) -> Bool)? = nil,
    action: (@Sendable (inout Context, Event) -> Void)? = nil
  ) -> ChartElement {
    ChartElement(
      kind: .transition(
        DeclaredTransition(
          trigger: .event(name: name, matches: matches, value: value),
          guardName: guardName ?? (condition == nil ? nil : "guard"),
          code: ChartTransitionCode(matches: matches, eventCondition: condition, eventAction: action),
          target: target)))
  }

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
          code: ChartTransitionCode(plainCondition: condition, plainAction: action),
          target: target)))
  }

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
          code: ChartTransitionCode(plainCondition: condition, plainAction: action),
          target: target)))
  }
}

extension ChartElement where Event: Equatable {
  static func on(
    _ event: Event,
    to target: String? = nil,
    guard guardName: String? = nil,
    _ condition: (@Sendable (Context, Event) -> Bool)? = nil,
    action: (@Sendable (inout Context, Event) -> Void)? = nil
  ) -> ChartElement {
    on(
      stateName(of: event), matching: { $0 == event }, value: event, to: target, guard: guardName, condition,
      action: action)
  }
}
