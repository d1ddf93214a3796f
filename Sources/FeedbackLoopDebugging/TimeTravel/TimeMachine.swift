import FeedbackLoop

/// Drives a running system back and forth along its recorded timeline:
/// jumps to a moment's state, and plays back from a moment either the
/// recorded events (the reducer recomputes) or the recorded states (the
/// system is set to each), CycleMonitor's two playback modes.
///
/// Every change is an event sent to the system, reduced like any other.
///
/// ```swift
/// let machine = TimeMachine(system: system, recorder: recorder)
/// machine.jump(to: 3)          // back to "loading page 2": that request starts again
/// machine.playEvents(from: 3)  // and recompute what followed
/// ```
public struct TimeMachine<State: Sendable, Event: TimeTravelEvent>: Sendable where Event.TravelState == State {
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
    send(.travel(to: moment.state))
    return true
  }

  /// Sets the system to `state` (an edited state, say).
  public func jump(toState state: State) {
    send(.travel(to: state))
  }

  /// Jumps to moment `sequence`, then sends every recorded event after it
  /// (jumps excepted), up to `last`: the reducer recomputes the states.
  /// Returns how many events it sent.
  @discardableResult
  public func playEvents(from sequence: UInt64, through last: UInt64 = .max) -> Int {
    let recorded = moments()
    guard let start = recorded.first(where: { $0.sequence == sequence }) else { return 0 }
    send(.travel(to: start.state))
    var sent = 0
    for moment in recorded where moment.sequence > sequence && moment.sequence <= last {
      guard let event = moment.event, event.travelDestination == nil else { continue }
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
      send(.travel(to: moment.state))
      sent += 1
    }
    return sent
  }
}
