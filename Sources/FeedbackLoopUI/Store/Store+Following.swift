/// How a scoped store follows its root: derived when read, or, while
/// someone reads or listens to it, given each state straight from the root
/// (`StoreTree`).
extension Store {
  /// Derives the state of a scoped store from the root's, if the root took
  /// a state since it last did. A followed store takes it as it would from
  /// the root (compared, its changes noted for its readers); one nobody
  /// follows just replaces it: nobody waits to hear of the change.
  @inlinable @inline(__always)
  func refreshIfStale() {
    guard derive != nil, derivedAt != tree.generation, !hasStopped else { return }
    refresh()
  }

  @usableFromInline
  func refresh() {
    if isFollowed {
      takeFromRoot()
      return
    }
    derivedAt = tree.generation
    if let new = derive?() { slots.current.pointee = new }
  }

  /// From now on, this scoped store takes every state of the root, until
  /// nobody follows it (``staysListed()``). Its state is derived first,
  /// so that the reader that follows it reads the current one.
  @usableFromInline
  func followFromNow() {
    refreshIfStale()
    guard !isFollowed, let hooks else { return }
    isFollowed = true
    guard !isListed else { return }
    isListed = true
    tree.follow(self, depth: depth, hooks: hooks)
  }

  /// Registers a store scoped from this one, to be told when the system
  /// stops; the references to stores gone are dropped now and then.
  @usableFromInline
  func addStopFollower(_ store: any TreeMember) {
    if stopFollowers.count >= 16, stopFollowers.count.nonzeroBitCount == 1 {
      stopFollowers.removeAll { $0.store == nil }
    }
    stopFollowers.append(StopFollower(store: store))
  }
}

extension Store: TreeMember {
  /// Takes the root's new state, if it has not yet, and notes what changed.
  @inlinable
  func takeFromRoot() {
    guard isFollowed, let derive, derivedAt != tree.generation else { return }
    derivedAt = tree.generation
    guard let new = derive() else { return }
    _ = take(new)
  }

  /// Whether the store keeps its entry in the tree's list: it follows
  /// every state if someone read it since its last notification (or
  /// listens, or it keeps its last part); it keeps the entry, dormant,
  /// through one state nobody followed it in.
  @inlinable
  func staysListed() -> Bool {
    if keepsLastPart || stateIsRead || !listeners.isEmpty || fieldList.contains(where: { $0.isRead }) {
      isFollowed = true
      return true
    }
    if isFollowed {
      isFollowed = false
      return true
    }
    isListed = false
    return false
  }
}
