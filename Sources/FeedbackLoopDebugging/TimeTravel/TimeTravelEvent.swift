/// An event type that can carry a jump to a recorded state: the way time
/// travel goes through the reducer, so that the reducer stays the only place
/// the state changes.
///
/// Add a case to your event and conform (a case `travel(to:)` is the
/// protocol's `travel(to:)`); wrap your reducer with
/// ``TimeTravel/reducer(_:)``. Feedbacks need no change:
/// they see the restored state like any other, so the effects the old state
/// needed are cancelled and those the restored state needs start.
///
/// ```swift
/// enum Event: Sendable, TimeTravelEvent {
///   case newSearch(String), loadNextPage, loaded(Page)
///   case travel(to: State)
///
///   var travelDestination: State? {
///     if case .travel(let state) = self { state } else { nil }
///   }
/// }
///
/// let system = System(
///   initial: State(), reduce: TimeTravel.reducer(reduce), feedbacks: feedbacks, monitor: recorder.monitor
/// )
/// ```
public protocol TimeTravelEvent: Sendable {
  /// The state a jump restores.
  associatedtype TravelState: Sendable
  /// The event that sets the state to `state`.
  static func travel(to state: TravelState) -> Self
  /// The state this event restores, if it is a jump.
  var travelDestination: TravelState? { get }
}

/// Time travel in a live system.
public enum TimeTravel {
  /// Wraps `reduce` so that a jump event sets the state, and every other
  /// event goes to `reduce`.
  public static func reducer<State: Sendable, Event: TimeTravelEvent>(
    _ reduce: @escaping @Sendable (inout State, Event) -> Void
  ) -> @Sendable (inout State, Event) -> Void where Event.TravelState == State {
    { state, event in
      if let destination = event.travelDestination {
        state = destination
      } else {
        reduce(&state, event)
      }
    }
  }

  /// Wraps a reducer that returns the new state.
  ///
  /// ```swift
  /// let reduce = TimeTravel.reducer(reduceReturning: Editor.reduce)
  /// ```
  public static func reducer<State: Sendable, Event: TimeTravelEvent>(
    reduceReturning reduce: @escaping @Sendable (State, Event) -> State
  ) -> @Sendable (inout State, Event) -> Void where Event.TravelState == State {
    reducer { (state: inout State, event: Event) in state = reduce(state, event) }
  }
}
