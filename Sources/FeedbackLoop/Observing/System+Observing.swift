/// The observers' public face on ``System``: its states as a sequence, or
/// a callback per state. Both register an observer with the core
/// (StateObservers.swift), which the loop calls after the feedbacks (G3).
extension System {
  /// Every state, the current one first, as an asynchronous sequence.
  ///
  /// Each iteration of ``states`` receives the state current when it was
  /// created, then every later state in order, after the feedbacks have seen
  /// it (G3). States wait in a buffer for a slow reader; choose its policy
  /// with ``states(buffering:isolation:)``. This one keeps them all.
  ///
  /// ```swift
  /// for await count in counter.states.prefix(3) { print(count) }
  /// ```
  public var states: StateSequence<State> { states(buffering: .all) }

  /// Every state, the current one first, buffered for a slow reader as
  /// `policy` says (G14).
  ///
  /// ```swift
  /// for await state in system.states(buffering: .newest(1)) { render(state) }
  /// ```
  public func states(
    buffering policy: StateBuffering,
    isolation caller: isolated (any Actor)? = #isolation
  ) -> StateSequence<State> {
    let (stream, continuation) = AsyncStream<State>.makeStream(bufferingPolicy: policy.streamPolicy())
    let id = core.addObserver(
      { state in continuation.yield(state) },
      stopped: { continuation.finish() },
      callerIsMainActor: caller === MainActor.shared)
    continuation.onTermination = { [weak core] _ in core?.removeObserver(id) }
    return StateSequence(stream: stream)
  }

  /// Calls `observer` with the current state, then with every later state,
  /// on the loop's thread (the main actor for a main-actor system), after
  /// the feedbacks have seen it (G3). The loop waits for it: keep it short.
  ///
  /// The observation ends when the returned ``StateObservation`` is
  /// cancelled or the system stops; then `onStop` is called, once.
  ///
  /// ```swift
  /// let observation = counter.observe { count in print(count) } onStop: { print("done") }
  /// ```
  public func observe(
    isolation caller: isolated (any Actor)? = #isolation,
    _ observer: @escaping @Sendable (State) -> Void,
    onStop: @escaping @Sendable () -> Void = {}
  ) -> StateObservation {
    let id = core.addObserver(observer, stopped: onStop, callerIsMainActor: caller === MainActor.shared)
    return StateObservation { [weak core] in core?.removeObserver(id) }
  }
}
