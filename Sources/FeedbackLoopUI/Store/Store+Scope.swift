extension Store {
  /// A store for a child view: the part of the state at `toChildState`, and
  /// the events the child may send, mapped into this store's events.
  ///
  /// The same as the function form, for a key path. When the key path and
  /// those of the stores this one is scoped from are stored properties, the
  /// child reads its part straight from the root's state, at the sum of
  /// their byte offsets: a store scoped ten levels deep costs what one
  /// level does.
  ///
  /// ```swift
  /// NotificationsView(
  ///   store: store.scope(state: \.notifications, event: Settings.Event.notifications)
  /// )
  /// ```
  ///
  /// - Parameters:
  ///   - toChildState: the child's part of the state.
  ///   - toEvent: turns a child's event into one of this store's events.
  @inlinable @inline(__always)
  public func scope<ChildState, ChildEvent>(
    state toChildState: KeyPath<State, ChildState>,
    event toEvent: @escaping (ChildEvent) -> Event
  ) -> Store<ChildState, ChildEvent> {
    scope(state: toChildState, route: route.scoped(toEvent))
  }

  /// The key-path scope, given the child's route (``EventRoute/scoped(_:)``,
  /// made in the public scope, which is always inlined where the store is
  /// scoped, so that its closure is specialized there for the child's event:
  /// made in `child`, it cost a deep send about a fifth more).
  @inlinable
  func scope<ChildState, ChildEvent>(
    state toChildState: KeyPath<State, ChildState>,
    route: EventRoute<ChildEvent>
  ) -> Store<ChildState, ChildEvent> {
    refreshIfStale()
    guard let offset = MemoryLayout<State>.offset(of: toChildState), let anchor = anchorForScopes() else {
      return child(
        initial: current[keyPath: toChildState], state: { $0[keyPath: toChildState] }, keepsLastPart: false,
        route: route)
    }
    let (base, childOffset) = (anchor.base, anchor.offset + offset)
    let child = child(
      initial: slots.current.pointee[keyPath: toChildState],
      derive: { (base() + childOffset).assumingMemoryBound(to: ChildState.self).pointee },
      keepsLastPart: false, route: route)
    child.anchor = StoreAnchor(base: base, offset: childOffset)
    return child
  }

  /// A store for a child view: a part of the state, and the events the child
  /// may send, mapped into this store's events.
  ///
  /// The child store follows this one synchronously: when this store takes a
  /// new state, so does the child, before `send` returns. Its ``state``
  /// notifies its readers only when the part changes (when it is
  /// `Equatable`), so a child view re-renders only for its part. The child
  /// keeps this store, and so the system, alive; this store holds the child
  /// weakly.
  ///
  /// ```swift
  /// struct Settings {
  ///   struct State: Equatable { var notifications = Notifications.State(); var theme = Theme.light }
  ///   enum Event { case notifications(Notifications.Event), themeChanged(Theme) }
  /// }
  ///
  /// NotificationsView(
  ///   store: store.scope(state: \.notifications, event: Settings.Event.notifications)
  /// )
  /// ```
  ///
  /// - Parameters:
  ///   - toChildState: the child's part of the state, a pure function.
  ///   - toEvent: turns a child's event into one of this store's events.
  @inlinable @inline(__always)
  public func scope<ChildState, ChildEvent>(
    state toChildState: @escaping (State) -> ChildState,
    event toEvent: @escaping (ChildEvent) -> Event
  ) -> Store<ChildState, ChildEvent> {
    child(initial: toChildState(current), state: toChildState, keepsLastPart: false, route: route.scoped(toEvent))
  }

  /// A store for a child view whose part of the state exists in some states
  /// only (an enum case, an optional member), or `nil` if the current state
  /// has none.
  ///
  /// The child takes the part of each state that has one, and keeps its last
  /// part through the states that have none. Show the child while the part
  /// exists, and scope anew when it appears again.
  ///
  /// ```swift
  /// if let detail = store.scope(unwrapping: \.selectedItem, event: List.Event.detail) {
  ///   DetailView(store: detail)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - toChildState: the child's part of the state, or `nil` when there is none.
  ///   - toEvent: turns a child's event into one of this store's events.
  public func scope<ChildState, ChildEvent>(
    unwrapping toChildState: @escaping (State) -> ChildState?,
    event toEvent: @escaping (ChildEvent) -> Event
  ) -> Store<ChildState, ChildEvent>? {
    guard let initial = toChildState(current) else { return nil }
    return child(initial: initial, state: toChildState, keepsLastPart: true, route: route.scoped(toEvent))
  }

  /// Makes a store that follows this one: its state is this store's
  /// through `toChildState`; a `nil` leaves the child unchanged, which
  /// `keepsLastPart` must then say. Its events go through `route`.
  @inlinable
  func child<ChildState, ChildEvent>(
    initial: ChildState,
    state toChildState: @escaping (State) -> ChildState?,
    keepsLastPart: Bool,
    route: EventRoute<ChildEvent>
  ) -> Store<ChildState, ChildEvent> {
    // Through this store, which derives its own state first if it is stale.
    child(initial: initial, derive: { [self] in toChildState(current) }, keepsLastPart: keepsLastPart, route: route)
  }

  /// Makes a store scoped from this one, in its tree: it derives its state
  /// with `derive` when it is read, or takes each state from the root while
  /// someone follows it (StoreTree.swift); its events go to this store's
  /// system through `route` (``EventRoute``). Inlinable, as the
  /// scopes are, so that its closures are specialized for the child's
  /// state where it is scoped.
  @inlinable
  func child<ChildState, ChildEvent>(
    initial: ChildState,
    derive: @escaping @MainActor () -> ChildState?,
    keepsLastPart: Bool,
    route: EventRoute<ChildEvent>
  ) -> Store<ChildState, ChildEvent> {
    let child = Store<ChildState, ChildEvent>(
      initial: initial,
      isDuplicate: equality(of: ChildState.self),
      route: route,
      stop: { [self] in self.stop() },
      processQueued: { [self] in self.processQueuedEvents() },
      owner: self)
    child.tree = tree
    child.derive = derive
    child.derivedAt = tree.generation
    child.depth = depth + 1
    child.keepsLastPart = keepsLastPart
    child.hooks = TreeHooks(
      take: { [unowned child] in child.takeFromRoot() },
      tell: { [unowned child] in child.tellReaders() },
      staysListed: { [unowned child] in child.staysListed() })
    if hasStopped {
      child.systemStopped()
      return child
    }
    addStopFollower(child)
    // A part kept through the states that have none must see every state.
    if keepsLastPart { child.followFromNow() }
    return child
  }

  /// Where this store's state lies in a state kept eagerly, for a store
  /// scoped from it through a stored property: the root's state, this
  /// store's own if it keeps its last part (it takes every state), or, for
  /// a store derived through a function, its own, derived first.
  @usableFromInline
  func anchorForScopes() -> StoreAnchor? {
    if let anchor { return anchor }
    if derive == nil || keepsLastPart {
      let slots = slots
      return StoreAnchor(base: { UnsafeRawPointer(slots.current) }, offset: 0)
    }
    return StoreAnchor(
      base: { [unowned self] in
        refreshIfStale()
        return UnsafeRawPointer(slots.current)
      }, offset: 0)
  }
}
