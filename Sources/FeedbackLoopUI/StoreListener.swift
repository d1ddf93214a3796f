/// One listener of a store: a scoped store, a state sequence or a state
/// publisher, told of each new state on the main actor.
@MainActor
struct StoreListener<State> {
  let id: Int
  /// Takes a new state; returns `false` when the listener is gone (a
  /// released scoped store, a terminated sequence), which removes it.
  let receive: @MainActor (State) -> Bool
  /// The system stopped: no state will follow.
  let finish: @MainActor () -> Void
}
