/// Where a store keeps its state: the current state, and a spare slot that
/// a new state is copied into, compared there with the current one, and
/// which then becomes the current state.
///
/// A new state is copied once, into the spare slot, and compared in place:
/// with the state in a stored property, the store copied it out before
/// comparing, and copied the new state in after (two copies of the whole
/// state per event, and a closure per event to get the addresses, which
/// Swift 6 checks for the main actor each time it is entered).
///
/// Only the store's main actor touches it (the store holds it in a `let`
/// and never shares it). Exclusivity of the properties marked
/// `@exclusivity(unchecked)`: one thread only, and every access is
/// instantaneous (the states are compared through the pointers, not
/// through these properties), so no two accesses overlap.
@usableFromInline
final class StateSlots<State> {
  // The pointers are safe: both slots are allocated in `init` and freed
  // only in `deinit`, so they live as long as the store that holds this
  // object; `current` is always initialized (an old state is deinitialized
  // only in `promoteSpare`, once it is no longer `current`), and `spare` is
  // initialized only between the copy of a new state into it and
  // `promoteSpare`, so `deinit` deinitializes `current` alone.
  /// The current state (initialized).
  @usableFromInline @exclusivity(unchecked) var current: UnsafeMutablePointer<State>
  /// The spare slot: uninitialized but while a new state is being taken.
  @usableFromInline @exclusivity(unchecked) var spare: UnsafeMutablePointer<State>

  @usableFromInline
  init(_ initial: State) {
    current = .allocate(capacity: 1)
    current.initialize(to: initial)
    spare = .allocate(capacity: 1)
  }

  deinit {
    current.deinitialize(count: 1)
    current.deallocate()
    spare.deallocate()
  }

  /// Makes the new state in the spare slot the current one, and lets the
  /// old one go.
  @inlinable
  func promoteSpare() {
    let old = current
    current = spare
    spare = old
    old.deinitialize(count: 1)
  }
}
