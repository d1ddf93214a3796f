/// A state of a system declared in the Feedbacks library's protocol style: each state is
/// a type of its own, and transitions match states by type.
///
/// A system of such states has the state type `any StateProtocol`; `System { ... }`
/// without type arguments declares one.
///
/// ```swift
/// struct VolumeState: StateProtocol { let value: Int }
/// struct MutedState: StateProtocol {}
///
/// From(VolumeState.self) { state in
///   On(MuteEvent.self, transitionTo: MutedState())
/// }
/// ```
///
/// Systems whose state is one enum or struct need not conform to anything:
/// they match by case or by value with ``Pattern``.
///
/// The Feedbacks library calls it `State`; here it is `StateProtocol`, as
/// ``EventProtocol`` is, so that it shadows no generic parameter named
/// `State` in code that imports this module.
public protocol StateProtocol: Sendable {}

/// An event of a system declared in the Feedbacks library's protocol style: each event is
/// a type of its own, and transitions match events by type.
///
/// ```swift
/// struct IncreaseEvent: EventProtocol {}
/// struct DataIsLoaded: EventProtocol { let data: [String] }
///
/// On(DataIsLoaded.self, transitionTo: LoadedState.self) { event in
///   LoadedState(data: event.data)
/// }
/// ```
public protocol EventProtocol: Sendable {}

/// The state wildcard: `From(AnyState.self)` matches every state.
///
/// A wildcard transition applies only when no transition from an exact state
/// matches the same event (see ``Transitions`` for the whole rule).
///
/// ```swift
/// From(AnyState.self) { _ in
///   On(RefreshEvent.self, transitionTo: LoadingState(page: 1))
/// }
/// ```
public enum AnyState: StateProtocol {}

/// The event wildcard: `On(AnyEvent.self, ...)` matches every event.
///
/// A wildcard transition applies only when no transition for the exact event
/// matches (see ``Transitions`` for the whole rule).
///
/// ```swift
/// From(ErrorState.self) {
///   On(AnyEvent.self, transitionTo: LoadingState(page: 1))
/// }
/// ```
public enum AnyEvent: EventProtocol {}
