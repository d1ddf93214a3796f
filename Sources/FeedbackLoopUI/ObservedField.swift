import Observation

/// A member of a store's state that a view read through the store
/// (`store.count`): Observation tracks it on its own, under the key path
/// `\Store.state.count`, and the store notifies it only when its value
/// changes.
@MainActor
struct ObservedField<State, Event> {
  /// Whether the member differs between two states.
  let hasChanged: (State, State) -> Bool
  /// Registers a read of the member with Observation.
  let access: (Store<State, Event>) -> Void
  /// Runs a mutation between the member's will-set and did-set notifications.
  let withMutation: (Store<State, Event>, () -> Void) -> Void

  init<Value: Equatable>(_ keyPath: KeyPath<State, Value>) {
    let storeKeyPath = (\Store<State, Event>.state).appending(path: keyPath)
    hasChanged = { old, new in old[keyPath: keyPath] != new[keyPath: keyPath] }
    access = { store in store.access(keyPath: storeKeyPath) }
    withMutation = { store, mutation in store.withMutation(keyPath: storeKeyPath, mutation) }
  }
}
