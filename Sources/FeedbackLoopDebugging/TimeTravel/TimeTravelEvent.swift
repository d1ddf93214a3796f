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
public protocol TimeTravelEvent: AnyStateTravelEvent {
  /// The state a jump restores.
  associatedtype TravelState: Sendable
  /// The event that sets the state to `state`.
  static func travel(to state: TravelState) -> Self
  /// The state this event restores, if it is a jump.
  var travelDestination: TravelState? { get }
}

extension TimeTravelEvent {
  /// ``travel(to:)``, for a state of type ``TravelState``.
  public static func travel(toAnyState state: any Sendable) -> Self {
    guard let state = state as? TravelState else {
      fatalError(
        "FeedbackLoopDebugging: \(Self.self) jumps to a \(TravelState.self); it was given a \(type(of: state))")
    }
    return travel(to: state)
  }

  /// Whether ``travelDestination`` is set.
  public var isTravel: Bool { travelDestination != nil }
}

/// An event type that can carry a jump to a state it does not name in its
/// type: the library's event types that many systems share whatever their
/// state (a Cycle application's `CycleEvent`, a statechart's `ChartEvent`),
/// whose system's reducer sets the state it is given. Your own event types
/// conform to ``TimeTravelEvent``, which refines this protocol and
/// implements it.
///
/// A ``TimeMachine`` drives a system whose event conforms to either.
///
/// ```swift
/// let machine = TimeMachine(system: app, recorder: recorder)  // a System<Reel<Frame>, CycleEvent>
/// machine.jump(to: 3)
/// ```
public protocol AnyStateTravelEvent: Sendable {
  /// The event that sets the system's state to `state`. The system's
  /// reducer stops with a message naming both types when `state` is not
  /// its state's type.
  static func travel(toAnyState state: any Sendable) -> Self
  /// Whether this event is a jump (a playback of events skips jumps).
  var isTravel: Bool { get }
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
