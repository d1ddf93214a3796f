/// What a declared system does with an event that no transition matches in
/// the current state.
///
/// Whatever the policy, the state stays as it is and the event still yields
/// a state (G3): feedbacks and observers see the unchanged state.
///
/// ```swift
/// let system = System(unmatchedEvents: .report) {
///   InitialState { LoadingState(page: 1) }
///   Transitions { ... }
/// }
/// ```
public struct UnmatchedEventPolicy<State: Sendable, Event: Sendable>: Sendable {
  enum Action: Sendable {
    case keep
    case log
    case call(@Sendable (State, Event) -> Void)
    case fail
  }

  let action: Action

  /// Keep the state and say nothing (the Feedbacks library's behaviour, the default).
  public static var keepState: UnmatchedEventPolicy { UnmatchedEventPolicy(action: .keep) }

  /// Keep the state and log a warning through the system's logger
  /// (`SystemEnvironment.logger`), with the state and the event.
  public static var report: UnmatchedEventPolicy { UnmatchedEventPolicy(action: .log) }

  /// Keep the state and call `handler` with the state and the event, on the
  /// loop's thread, inside the reducer: keep it short, and send nothing.
  ///
  /// ```swift
  /// .report { state, event in analytics.unexpected("\(event) in \(state)") }
  /// ```
  public static func report(_ handler: @escaping @Sendable (State, Event) -> Void) -> UnmatchedEventPolicy {
    UnmatchedEventPolicy(action: .call(handler))
  }

  /// Stop the program in debug builds (`assertionFailure`), so that a
  /// forgotten transition shows at once; in release builds, keep the state
  /// and log as ``report`` does.
  public static var failInDebugBuilds: UnmatchedEventPolicy { UnmatchedEventPolicy(action: .fail) }
}
