import FeedbackLoop

// Connected systems (the Feedbacks library's `attach`): a running system sends values to
// a mediator when it reaches some states, receives events from a mediator's
// values, or sends events straight to another system.
//
// Nothing here lets one system keep another alive: a system holds a
// mediator, a mediator holds its subscribers' systems weakly, and a system
// attached to another holds it weakly. Each attachment lasts as long as the
// system it observes runs.
//
// Attachments are level-triggered, as in the Feedbacks library: every state that matches
// sends, including a state left unchanged by an event no transition
// matched (G3). Two systems attached both ways on states that persist
// therefore answer each other forever; attach one way, or match states that
// the answer leaves.

extension FeedbackLoop.System {
  /// Sends `emitMediatorValue(value)` to `mediator` for each state `pattern`
  /// matches, from the current state on, on the loop's thread, after the
  /// feedbacks have seen the state.
  ///
  /// ```swift
  /// let systemA = System<Phase, Action> { ... }
  ///   .attach(to: mediator, onSystemState: .case("loaded", \.loaded), emitMediatorValue: { $0.count })
  /// ```
  @discardableResult
  public func attach<M: Mediator, Value>(
    to mediator: M,
    onSystemState pattern: Pattern<State, Value>,
    emitMediatorValue: @escaping @Sendable (Value) -> M.Value
  ) -> Self {
    _ = observe { state in
      if let value = pattern.extract(from: state) { mediator.send(emitMediatorValue(value)) }
    }
    return self
  }

  /// Sends `emitMediatorValue(state)` to `mediator` for each state of type
  /// `stateType` (the Feedbacks library's form).
  ///
  /// ```swift
  /// let systemA = System { ... }
  ///   .attach(to: mediator, onSystemState: LoadedState.self, emitMediatorValue: { _ in 1701 })
  /// ```
  @discardableResult
  public func attach<M: Mediator, StateType: Sendable>(
    to mediator: M,
    onSystemState stateType: StateType.Type,
    emitMediatorValue: @escaping @Sendable (StateType) -> M.Value
  ) -> Self {
    attach(to: mediator, onSystemState: .type(stateType), emitMediatorValue: emitMediatorValue)
  }

  /// Sends `emitSystemEvent(value)` to this system for each value of
  /// `mediator` that `matches`, as the mediator delivers it.
  ///
  /// ```swift
  /// system.attach(to: scores, onMediatorValue: { $0 > 100 }, emitSystemEvent: { .highScore($0) })
  /// ```
  @discardableResult
  public func attach<M: Mediator>(
    to mediator: M,
    onMediatorValue matches: @escaping @Sendable (M.Value) -> Bool,
    emitSystemEvent: @escaping @Sendable (M.Value) -> Event
  ) -> Self {
    let cell = SubscriptionCell()
    cell.hold(
      mediator.subscribe { [weak self] value in
        guard let self, !self.isStopped else {
          cell.cancel()
          return
        }
        if matches(value) { self.send(emitSystemEvent(value)) }
      })
    return self
  }

  /// Sends `emitSystemEvent(value)` to this system each time `mediator`
  /// delivers `value` (the Feedbacks library's form).
  ///
  /// ```swift
  /// let systemB = System { ... }
  ///   .attach(to: mediator, onMediatorValue: 1701, emitSystemEvent: { _ in LoadedDoneEvent() })
  /// ```
  @discardableResult
  public func attach<M: Mediator>(
    to mediator: M,
    onMediatorValue value: M.Value,
    emitSystemEvent: @escaping @Sendable (M.Value) -> Event
  ) -> Self where M.Value: Equatable {
    attach(to: mediator, onMediatorValue: { $0 == value }, emitSystemEvent: emitSystemEvent)
  }

  /// Sends `emitAttachedSystemEvent(value)` to `other` for each state of this
  /// system that `pattern` matches, without a mediator.
  ///
  /// ```swift
  /// list.attach(to: detail, onSystemState: .case("selected", \.selected)) { item in .show(item) }
  /// ```
  @discardableResult
  public func attach<OtherState, OtherEvent, Value>(
    to other: FeedbackLoop.System<OtherState, OtherEvent>,
    onSystemState pattern: Pattern<State, Value>,
    emitAttachedSystemEvent: @escaping @Sendable (Value) -> OtherEvent
  ) -> Self {
    _ = observe { [weak other] state in
      guard let other, let value = pattern.extract(from: state) else { return }
      other.send(emitAttachedSystemEvent(value))
    }
    return self
  }

  /// Sends `emitAttachedSystemEvent(state)` to `other` for each state of type
  /// `stateType` of this system (the Feedbacks library's form).
  ///
  /// ```swift
  /// systemA.attach(to: systemB, onSystemStateType: LoadedState.self) { stateFromA in
  ///   LoadedEvent(data: stateFromA.data)
  /// }
  /// ```
  @discardableResult
  public func attach<OtherState, OtherEvent, StateType: Sendable>(
    to other: FeedbackLoop.System<OtherState, OtherEvent>,
    onSystemStateType stateType: StateType.Type,
    emitAttachedSystemEvent: @escaping @Sendable (StateType) -> OtherEvent
  ) -> Self {
    attach(to: other, onSystemState: .type(stateType), emitAttachedSystemEvent: emitAttachedSystemEvent)
  }
}

/// Holds a mediator subscription so that its own subscriber can cancel it
/// once the system it sends to is gone.
final class SubscriptionCell: Sendable {
  /// The subscription held, and whether `cancel` came first.
  private let state = Locked<(subscription: MediatorSubscription?, cancelled: Bool)>((nil, false))

  func hold(_ subscription: MediatorSubscription) {
    let cancelNow = state.withLock { state -> Bool in
      if state.cancelled { return true }
      state.subscription = subscription
      return false
    }
    if cancelNow { subscription.cancel() }
  }

  func cancel() {
    let subscription = state.withLock { state -> MediatorSubscription? in
      state.cancelled = true
      defer { state.subscription = nil }
      return state.subscription
    }
    subscription?.cancel()
  }
}
