/// A mistake in a statechart's declaration, found when the chart is built
/// (``Statechart/init(_:initial:content:)``). The message names the state.
///
/// ```swift
/// do {
///   _ = try Statechart<Void, Event>("player", initial: "idle") {
///     ChartState("idle") { Transition(on: .play, to: "playin") }
///   }
/// } catch {
///   print(error)  // statechart "player": the transition from "idle" on play goes to "playin", which is not declared
/// }
/// ```
public struct ChartDeclarationError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What is wrong, naming the state.
  public let message: String

  public var description: String { message }
}
