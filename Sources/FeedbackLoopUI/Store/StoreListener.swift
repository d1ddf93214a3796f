/// One listener of a store: a scoped store, a state sequence or a state
/// publisher, told of each new state on the main actor.
@MainActor
@usableFromInline
struct StoreListener<State> {
  @usableFromInline let id: Int
  /// Takes a new state before any reader of the store is told of it (a
  /// scoped store stores its part); `nil` for a listener that only hears.
  @usableFromInline let take: (@MainActor (State) -> Void)?
  /// Takes a new state; returns `false` when the listener is gone (a
  /// released scoped store, a terminated sequence), which removes it.
  @usableFromInline let onState: @MainActor (State) -> Bool
  /// The system stopped: no state will follow.
  @usableFromInline let finish: @MainActor () -> Void
}
