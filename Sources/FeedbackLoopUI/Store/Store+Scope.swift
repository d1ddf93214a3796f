extension Store {
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
  public func scope<ChildState, ChildEvent>(
    state toChildState: @escaping (State) -> ChildState,
    event toEvent: @escaping (ChildEvent) -> Event
  ) -> Store<ChildState, ChildEvent> {
    child(initial: toChildState(current), state: toChildState, event: toEvent)
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
    return child(initial: initial, state: toChildState, event: toEvent)
  }

  /// Makes a store that follows this one: each new state of this store goes
  /// through `toChildState`; a `nil` leaves the child unchanged.
  func child<ChildState, ChildEvent>(
    initial: ChildState,
    state toChildState: @escaping (State) -> ChildState?,
    event toEvent: @escaping (ChildEvent) -> Event
  ) -> Store<ChildState, ChildEvent> {
    let child = Store<ChildState, ChildEvent>(
      initial: initial,
      isDuplicate: equality(of: ChildState.self),
      forward: { [self] event in self.send(toEvent(event)) },
      stop: { [self] in self.stop() },
      processQueued: { [self] in self.processQueuedEvents() },
      owner: self)
    if hasStopped { child.systemStopped() }
    // The child takes its part with this store's state, before anyone is
    // told, and tells its readers after this store's (see `receive(_:)`).
    addListener(
      take: { [weak child] state in
        guard let child, let childState = toChildState(state) else { return }
        _ = child.take(childState)
      },
      receive: { [weak child] _ in
        guard let child else { return false }
        child.tellReaders()
        return true
      },
      finish: { [weak child] in child?.systemStopped() })
    return child
  }
}
