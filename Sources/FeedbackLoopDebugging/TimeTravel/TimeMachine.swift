import FeedbackLoop

/// Drives a running system back and forth along its recorded timeline:
/// jumps to a moment's state, and plays back from a moment either the
/// recorded events (the reducer recomputes; the effects answer again
/// themselves) or the recorded states (the system is set to each),
/// CycleMonitor's two playback modes.
///
/// Every change is an event sent to the system, reduced like any other.
///
/// ```swift
/// let machine = TimeMachine(system: system, recorder: recorder)
/// machine.jump(to: 3)          // back to "loading page 2": that request starts again
/// machine.playEvents(from: 3)  // and recompute what followed
/// ```
///
/// A system whose event type is the library's own (a Cycle application's,
/// a statechart's) travels the same way: its event carries the jump
/// (``AnyStateTravelEvent``) and its reducer sets the state.
public struct TimeMachine<State: Sendable, Event: AnyStateTravelEvent>: Sendable {
  private let send: @Sendable (Event) -> Void
  private let moments: @Sendable () -> [Moment<State, Event>]

  /// A time machine for `system`, along what `recorder` recorded.
  public init(system: System<State, Event>, recorder: Recorder<State, Event>) {
    send = { [weak system] event in system?.send(event) }
    moments = { recorder.moments }
  }

  /// A time machine that sends through `send`, along `moments`.
  public init(
    send: @escaping @Sendable (Event) -> Void, moments: @escaping @Sendable () -> [Moment<State, Event>]
  ) {
    self.send = send
    self.moments = moments
  }

  /// The recorded moment numbered `sequence`, if it is still recorded.
  public func moment(_ sequence: UInt64) -> Moment<State, Event>? {
    moments().first { $0.sequence == sequence }
  }

  /// Sets the system to the state of moment `sequence`; `false` if that
  /// moment is no longer recorded.
  @discardableResult
  public func jump(to sequence: UInt64) -> Bool {
    guard let moment = moments().first(where: { $0.sequence == sequence }) else { return false }
    send(.travel(toAnyState: moment.state))
    return true
  }

  /// Sets the system to `state` (an edited state, say).
  public func jump(toState state: State) {
    send(.travel(toAnyState: state))
  }

  /// Jumps to moment `sequence`, then sends the recorded events after it
  /// (jumps excepted), up to `last`: the reducer recomputes the states.
  /// Returns how many events it sent.
  ///
  /// By default it sends only the events that came from outside the
  /// system's feedbacks (``PlaybackEvents/external``: `System.send`, an
  /// `Input`, and moments that name no source): the feedbacks see the
  /// replayed states and derive their effects again, and those effects send
  /// their answers themselves, on the system's clock. Sending the recorded
  /// answers too would deliver each one twice. A time machine that drives a
  /// system with no feedbacks, where nothing would send them, asks for
  /// ``PlaybackEvents/all``.
  ///
  /// The events are sent at once, one after the other: an outside event
  /// that was sent after an effect answered reaches the system before the
  /// effect, derived again, answers. Play up to such an event (`through:`),
  /// let the effects answer, then play on from there, `through:` the
  /// session's last moment: a playback is recorded too, after it, and
  /// without a bound the next playback sends its events again.
  ///
  /// ```swift
  /// machine.playEvents(from: 2, through: 4)  // moment 3's .loadNextPage; the request answers page 2 itself
  /// reducerOnlyMachine.playEvents(from: 0, sending: .all)  // every recorded event, answers included
  /// ```
  @discardableResult
  public func playEvents(
    from sequence: UInt64, through last: UInt64 = .max, sending events: PlaybackEvents = .external
  ) -> Int {
    let recorded = moments()
    guard let start = recorded.first(where: { $0.sequence == sequence }) else { return 0 }
    send(.travel(toAnyState: start.state))
    var sent = 0
    for moment in recorded where moment.sequence > sequence && moment.sequence <= last {
      guard let event = moment.event, !event.isTravel, events.includes(moment.source) else { continue }
      send(event)
      sent += 1
    }
    return sent
  }

  /// Sets the system to each recorded state after moment `sequence` in
  /// turn, up to `last`. Returns how many states it sent.
  @discardableResult
  public func playStates(from sequence: UInt64, through last: UInt64 = .max) -> Int {
    var sent = 0
    for moment in moments() where moment.sequence >= sequence && moment.sequence <= last {
      send(.travel(toAnyState: moment.state))
      sent += 1
    }
    return sent
  }
}

/// Which recorded events ``TimeMachine/playEvents(from:through:sending:)`` sends.
///
/// ```swift
/// machine.playEvents(from: 3)                  // .external: the effects answer again themselves
/// machine.playEvents(from: 3, sending: .all)   // a system without feedbacks: answers too
/// ```
///
/// Closed for good: no version adds a case.
public enum PlaybackEvents: Sendable, Hashable {
  /// The events sent from outside (``MomentSource/external``, or no source
  /// recorded): the system's feedbacks, seeing the replayed states, derive
  /// their effects again, and the effects send their answers themselves.
  /// Events of a feedback's own task (an input bound to a sequence) are
  /// left out too: that task runs on in the live system.
  case external
  /// Every recorded event, those of effects and feedbacks' own tasks too:
  /// for a system that runs no feedbacks. In a system that does, an effect
  /// derived again from a replayed state answers again, and its answer
  /// arrives twice.
  case all

  func includes(_ source: MomentSource?) -> Bool {
    switch (self, source) {
    case (.all, _), (.external, nil), (.external, .external): true
    case (.external, .feedback), (.external, .effect): false
    }
  }
}
