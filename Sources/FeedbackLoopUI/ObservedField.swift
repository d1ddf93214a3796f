import Observation

/// A member of a store's state that a view read through the store
/// (`store.count`): Observation tracks it on its own, under the key path
/// `\Store.state.count`, and the store notifies it only when its value
/// changes, and only if it was read since its last notification.
///
/// The comparison is a method of a subclass (``StoredMember`` for a stored
/// member, ``ComputedMember`` otherwise) rather than a closure: the store
/// calls it for every member on every state, and a method call on an
/// object the store holds costs no reference counting of a closure context.
@MainActor
@usableFromInline
class ObservedField<State, Event> {
  /// Registers a read of the member with Observation.
  @usableFromInline let access: (Store<State, Event>) -> Void
  /// Runs a mutation between the member's will-set and did-set notifications.
  @usableFromInline let withMutation: (Store<State, Event>, () -> Void) -> Void
  /// Whether the member was read through the store since its last
  /// notification: Observation registers observers only in reads, and each
  /// hears of one change, so an unread member has nobody to notify.
  /// (Exclusivity: only the main actor touches it, never re-entrantly.)
  @usableFromInline @exclusivity(unchecked) var isRead = false
  /// Whether the state being taken changed the member: set by the
  /// comparison, cleared when the store passes the member to notify it.
  @usableFromInline @exclusivity(unchecked) var isDue = false

  @usableFromInline
  init<Value>(_ keyPath: KeyPath<State, Value>) {
    let storeKeyPath = (\Store<State, Event>.state).appending(path: keyPath)
    access = { store in store.access(keyPath: storeKeyPath) }
    withMutation = { store, mutation in store.withMutation(keyPath: storeKeyPath, mutation) }
  }

  /// Whether the member differs between the states at two addresses.
  @usableFromInline
  func hasChanged(_ old: UnsafePointer<State>, _ new: UnsafePointer<State>) -> Bool {
    preconditionFailure("ObservedField is abstract")
  }

  /// The field for the member at `keyPath`.
  @inlinable
  static func member<Value: Equatable>(_ keyPath: KeyPath<State, Value>) -> ObservedField {
    if let offset = MemoryLayout<State>.offset(of: keyPath) {
      return StoredMember<State, Event, Value>(keyPath, offset: offset)
    }
    return ComputedMember<State, Event, Value>(computed: keyPath)
  }
}

/// A stored member: compared in place, at its offset, as
/// `MemoryLayout.offset(of:)` documents, rather than projected through the
/// key path twice per state (a call into the runtime each).
@usableFromInline
final class StoredMember<State, Event, Value: Equatable>: ObservedField<State, Event> {
  @usableFromInline let offset: Int

  @usableFromInline
  init(_ keyPath: KeyPath<State, Value>, offset: Int) {
    self.offset = offset
    super.init(keyPath)
  }

  @usableFromInline
  override func hasChanged(_ old: UnsafePointer<State>, _ new: UnsafePointer<State>) -> Bool {
    let oldMember = UnsafeRawPointer(old).advanced(by: offset).assumingMemoryBound(to: Value.self)
    let newMember = UnsafeRawPointer(new).advanced(by: offset).assumingMemoryBound(to: Value.self)
    return oldMember.pointee != newMember.pointee
  }
}

/// A computed member (or one whose key path has no offset): read through
/// its key path.
@usableFromInline
final class ComputedMember<State, Event, Value: Equatable>: ObservedField<State, Event> {
  @usableFromInline let keyPath: KeyPath<State, Value>

  @usableFromInline
  init(computed keyPath: KeyPath<State, Value>) {
    self.keyPath = keyPath
    super.init(keyPath)
  }

  @usableFromInline
  override func hasChanged(_ old: UnsafePointer<State>, _ new: UnsafePointer<State>) -> Bool {
    old.pointee[keyPath: keyPath] != new.pointee[keyPath: keyPath]
  }
}
