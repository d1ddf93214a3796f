/// The state a declared system starts in. A system without one does not
/// compile: ``SystemBuilder`` accepts no list of parts without it.
///
/// ```swift
/// System {
///   InitialState { VolumeState(value: 10) }
///   Transitions { ... }
/// }
/// ```
public struct InitialState<State: Sendable>: Sendable {
  /// The initial state.
  public let state: State

  /// The initial state `make` returns, called once, now.
  ///
  /// ```swift
  /// InitialState { LoadingState(page: 1) }
  /// ```
  public init(_ make: () -> State) {
    state = make()
  }
}
