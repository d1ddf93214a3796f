import Observation

/// A member of a store's state that a view read through the store
/// (`store.count`): Observation tracks it on its own, as an observable
/// object of its own, and the store notifies it only when its value changes
/// (see `MemberComparison`), and only if it was read since its last
/// notification.
///
/// Each member is its own subject, under a key path of one component
/// (`\ObservedField.value`), rather than the store under
/// `\Store.state.count`: Observation hashes the key path in every read and
/// every notification, and a key path of two components cost a third of
/// what the observed-store benchmark added to the plain class (BENCHMARKS.md, "The UI store at the core's speed"). The key
/// path of a non-generic type is one object, made once.
@MainActor
@usableFromInline
final class ObservedField: Observable {
  /// The member's key path in the state, which the store finds it by.
  @usableFromInline let keyPath: AnyKeyPath
  @usableFromInline let registrar = ObservationRegistrar()
  /// What Observation tracks: the member's value is in the store's state;
  /// this names it.
  @usableFromInline let value: Void = ()
  /// Whether the member was read through the store since its last
  /// notification: Observation registers observers only in reads, and each
  /// hears of one change, so an unread member has nobody to notify.
  /// (Exclusivity: only the main actor touches it, never re-entrantly.)
  @usableFromInline @exclusivity(unchecked) var isRead = false

  @inlinable
  init(_ keyPath: AnyKeyPath) {
    self.keyPath = keyPath
  }

  /// Registers a read of the member with Observation.
  @inlinable
  func access() {
    registrar.access(self, keyPath: \.value)
  }

  /// Tells the member's observers that it changed (its will-set and
  /// did-set notifications), once the store holds the new state, so that
  /// an observer called at the will-set reads the new value.
  @inlinable
  func notify() {
    registrar.willSet(self, keyPath: \.value)
    registrar.didSet(self, keyPath: \.value)
  }
}
