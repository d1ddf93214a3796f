/// The stores of one system: its root store and every store scoped or
/// projected from it, however deep, which share this object.
///
/// A scoped store does not hear of each state through the stores between
/// it and the root: that made a send to a store ten levels deep cost ten
/// times the derivation, comparison and notification of a state. Instead
/// the root counts the states it takes (`generation`), and a scoped store
/// derives its state from the root's only when it is read
/// (`Store.refreshIfStale()`), with one step when its way down is a chain of
/// stored properties (`StoreAnchor`). Only the scoped stores someone
/// follows take every state, directly from the root: those whose ``Store/state``
/// or members were read since their last notification, those with
/// listeners (sequences, publishers), and those that keep their last part
/// through states that have none (`scope(unwrapping:)`,
/// `project(filtering:)`), which must see every state. So a send costs the
/// same at any depth, and a state costs one derivation per followed store.
@MainActor
@usableFromInline
final class StoreTree {
  /// How many states the root store has taken: a scoped store whose state
  /// was derived at an earlier count derives it again before it is read.
  @usableFromInline @exclusivity(unchecked) var generation: UInt64 = 0

  /// The followed scoped stores, shallowest first, so that a store takes
  /// each state after the stores it is scoped from.
  @usableFromInline @exclusivity(unchecked) var followed: [FollowedStore] = []

  @usableFromInline
  init() {}

  /// Adds `store`, which was not followed, at its depth.
  func follow(_ store: any TreeMember, depth: Int, hooks: TreeHooks) {
    let index = followed.firstIndex { $0.depth > depth } ?? followed.endIndex
    followed.insert(FollowedStore(store: store, depth: depth, hooks: hooks), at: index)
  }

  /// Each followed store takes the root's new state (before anyone is told).
  @usableFromInline
  func takeState() {
    var index = 0
    while index < followed.count {
      // The hooks hold the store unowned: called only while it lives (the
      // main actor runs nothing else between the check and the call).
      if followed[index].store != nil { followed[index].hooks.take() }
      index += 1
    }
  }

  /// Each followed store tells its readers; then the stores nobody
  /// followed for a whole state leave the list (a store read again from a
  /// callback stays).
  @usableFromInline
  func tellReaders() {
    let told = followed
    for entry in told where entry.store != nil { entry.hooks.tell() }
    followed.removeAll { entry in entry.store == nil || !entry.hooks.staysListed() }
  }
}

/// A scoped store as its tree sees it, whatever its state's type.
@MainActor
@usableFromInline
protocol TreeMember: AnyObject {
  /// The system stopped.
  func systemStopped()
}

/// What the tree calls on a followed store, as closures made where the
/// store was scoped, in inlinable code, so that they are specialized for
/// its state: called through a protocol, a store's generic methods ran
/// unspecialized, with a metadata look-up per state.
@MainActor
@usableFromInline
struct TreeHooks {
  /// Takes the root's new state, if it has not yet, and notes what changed.
  @usableFromInline let take: @MainActor () -> Void
  /// Tells the readers of the state taken last.
  @usableFromInline let tell: @MainActor () -> Void
  /// Whether the store keeps its entry; it follows every state if someone
  /// reads it (see `Store.staysListed()`).
  @usableFromInline let staysListed: @MainActor () -> Bool

  @inlinable
  init(
    take: @escaping @MainActor () -> Void, tell: @escaping @MainActor () -> Void,
    staysListed: @escaping @MainActor () -> Bool
  ) {
    self.take = take
    self.tell = tell
    self.staysListed = staysListed
  }
}

@MainActor
@usableFromInline
struct FollowedStore {
  @usableFromInline weak var store: (any TreeMember)?
  @usableFromInline let depth: Int
  @usableFromInline let hooks: TreeHooks
}

/// Where a scoped store's state lies in memory, when its way down from an
/// eagerly kept state (the root's, or a store's that keeps its last part)
/// is a chain of stored properties: `offset` bytes into the state `base`
/// returns. Composed once, when the store is scoped, so that deriving the
/// state costs one copy at any depth.
@MainActor
@usableFromInline
struct StoreAnchor {
  // The address is safe to read through: `base` is called on the main
  // actor and its result used at once, before the store takes another
  // state (which moves its current slot, `StateSlots`); the slots are kept
  // alive by the closure (captured strongly, or through the store captured
  // `unowned`, which traps rather than reads freed memory if it is gone).
  @usableFromInline let base: @MainActor () -> UnsafeRawPointer
  @usableFromInline let offset: Int

  @inlinable
  init(base: @escaping @MainActor () -> UnsafeRawPointer, offset: Int) {
    self.base = base
    self.offset = offset
  }
}

/// A scoped store's weak reference, for the stores it is scoped from: they
/// tell it when the system stops.
@MainActor
struct StopFollower {
  weak var store: (any TreeMember)?
}
