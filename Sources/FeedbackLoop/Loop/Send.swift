/// What an effect uses to send events back into its system, and to reach the
/// system's clock.
///
/// Call it like a function: `send(.loaded(page))`. Sending never waits and
/// never reduces re-entrantly: the event is queued and reduced in order (G2).
/// Events sent after the effect was cancelled are dropped (G4).
///
/// ```swift
/// .run { send in
///   try await send.clock.sleep(for: .seconds(1))
///   send(.tick)
/// }
/// ```
public struct Send<Event: Sendable>: Sendable {
  @usableFromInline let deliver: @Sendable (Event) -> Void

  /// The clock injected into the system (G11). Time every wait with it.
  public let clock: any Clock<Duration>

  @usableFromInline
  init(clock: any Clock<Duration>, deliver: @escaping @Sendable (Event) -> Void) {
    self.clock = clock
    self.deliver = deliver
  }

  /// Sends `event` to the system.
  @inlinable
  public func callAsFunction(_ event: Event) { deliver(event) }

  /// A `Send` for events of another type, turned into this one's by `transform`.
  func pullback<Input: Sendable>(_ transform: @escaping @Sendable (Input) -> Event) -> Send<Input> {
    Send<Input>(clock: clock) { [deliver] in deliver(transform($0)) }
  }
}
