/// Collects the ``On`` transitions of a ``From`` block.
///
/// A block lists transitions, from constants or loops over constants; it
/// has no `if`: the block is evaluated once, when the system starts, not for
/// each state. Make a transition depend on a condition with
/// ``On/disable(_:)``, or on the state with a narrower ``Pattern``.
///
/// ```swift
/// From(VolumeState.self) { state in
///   On(IncreaseEvent.self, transitionTo: VolumeState(value: state.value + 1))
///   On(DecreaseEvent.self, transitionTo: VolumeState(value: state.value - 1))
/// }
/// ```
@resultBuilder
public enum OnBuilder<State: Sendable, Event: Sendable> {
  public static func buildExpression(_ transition: On<State, Event>) -> [On<State, Event>] { [transition] }
  public static func buildExpression(_ transitions: [On<State, Event>]) -> [On<State, Event>] { transitions }
  public static func buildBlock(_ parts: [On<State, Event>]...) -> [On<State, Event>] { parts.flatMap { $0 } }
  public static func buildArray(_ parts: [[On<State, Event>]]) -> [On<State, Event>] { parts.flatMap { $0 } }
}
