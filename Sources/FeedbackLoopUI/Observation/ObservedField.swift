import Observation

/// A member of a store's state that a view read through the store
/// (`store.count`): Observation tracks it on its own, under the key path
/// `\Store.state.count`, and the store notifies it only when its value
/// changes (see `MemberComparison`), and only if it was read since its last
/// notification.
@MainActor
@usableFromInline
final class ObservedField<State, Event> {
  /// The member's key path in the state, which the store finds it by.
  @usableFromInline let keyPath: AnyKeyPath
  /// Registers a read of the member with Observation.
  @usableFromInline let access: (Store<State, Event>) -> Void
  /// Runs a mutation between the member's will-set and did-set notifications.
  @usableFromInline let withMutation: (Store<State, Event>, () -> Void) -> Void
  /// Whether the member was read through the store since its last
  /// notification: Observation registers observers only in reads, and each
  /// hears of one change, so an unread member has nobody to notify.
  /// (Exclusivity: only the main actor touches it, never re-entrantly.)
  @usableFromInline @exclusivity(unchecked) var isRead = false

  @inlinable
  init<Value>(_ keyPath: KeyPath<State, Value>) {
    self.keyPath = keyPath
    let storeKeyPath = (\Store<State, Event>.state).appending(path: keyPath)
    access = { store in store.access(keyPath: storeKeyPath) }
    withMutation = { store, mutation in store.withMutation(keyPath: storeKeyPath, mutation) }
  }
}
