import Observation

/// A member of a store's state that a view read through the store
/// (`store.count`): Observation tracks it on its own, under the key path
/// `\Store.state.count`, and the store notifies it only when its value
/// changes, and only if it was read since its last notification.
///
/// Its comparison is a closure made in inlinable code, so specialized in the
/// app for the member's type; the store calls it through an unretained
/// reference to the field (see `Store.unretainedFields`), which costs no
/// reference counting per member and per state.
@MainActor
@usableFromInline
final class ObservedField<State, Event> {
  /// Whether the member differs between the states at two addresses.
  @usableFromInline let hasChanged: (UnsafePointer<State>, UnsafePointer<State>) -> Bool
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
  init<Value: Equatable>(_ keyPath: KeyPath<State, Value>) {
    let storeKeyPath = (\Store<State, Event>.state).appending(path: keyPath)
    if let offset = MemoryLayout<State>.offset(of: keyPath) {
      // A stored member: compared in place, at its offset, as
      // `MemoryLayout.offset(of:)` documents, rather than projected through
      // the key path twice per state (a call into the runtime each).
      hasChanged = { old, new in
        let oldMember = UnsafeRawPointer(old).advanced(by: offset).assumingMemoryBound(to: Value.self)
        let newMember = UnsafeRawPointer(new).advanced(by: offset).assumingMemoryBound(to: Value.self)
        return oldMember.pointee != newMember.pointee
      }
    } else {
      hasChanged = { old, new in old.pointee[keyPath: keyPath] != new.pointee[keyPath: keyPath] }
    }
    access = { store in store.access(keyPath: storeKeyPath) }
    withMutation = { store, mutation in store.withMutation(keyPath: storeKeyPath, mutation) }
  }
}
