/// Assembles a ``DeclarativeSystem`` from its parts: an ``InitialState``
/// first, then ``Transitions``, with ``Feedbacks`` before or after them.
///
/// The initial state is required: without it, no `buildBlock` applies and
/// the declaration does not compile, as in the Feedbacks library.
///
/// ```swift
/// System {
///   InitialState { VolumeState(value: 10) }
///   Feedbacks { ... }
///   Transitions { ... }
/// }
/// ```
@resultBuilder
public enum SystemBuilder<State: Sendable, Event: Sendable> {
  public static func buildExpression(_ initial: InitialState<State>) -> InitialState<State> { initial }
  public static func buildExpression(_ feedbacks: Feedbacks<State, Event>) -> Feedbacks<State, Event> { feedbacks }
  public static func buildExpression(_ transitions: Transitions<State, Event>) -> Transitions<State, Event> {
    transitions
  }

  public static func buildBlock(
    _ initial: InitialState<State>,
    _ transitions: Transitions<State, Event>
  ) -> DeclarativeSystem<State, Event> {
    DeclarativeSystem(initialState: initial.state, feedbacks: Feedbacks(), transitions: transitions)
  }

  public static func buildBlock(
    _ initial: InitialState<State>,
    _ feedbacks: Feedbacks<State, Event>,
    _ transitions: Transitions<State, Event>
  ) -> DeclarativeSystem<State, Event> {
    DeclarativeSystem(initialState: initial.state, feedbacks: feedbacks, transitions: transitions)
  }

  public static func buildBlock(
    _ initial: InitialState<State>,
    _ transitions: Transitions<State, Event>,
    _ feedbacks: Feedbacks<State, Event>
  ) -> DeclarativeSystem<State, Event> {
    DeclarativeSystem(initialState: initial.state, feedbacks: feedbacks, transitions: transitions)
  }
}
