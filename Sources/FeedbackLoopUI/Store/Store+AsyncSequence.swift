import FeedbackLoop

extension Store where State: Sendable {
  /// The store's states as an asynchronous sequence: the current state
  /// first, then each new one, in order. It ends when the system stops or
  /// the store goes away.
  ///
  /// These are the states the store takes: for an `Equatable` state, an
  /// event that leaves it equal yields nothing (the core's
  /// `System.states` yields every state). All of them wait for
  /// a slow reader; choose another policy with
  /// ``states(buffering:)->StateSequence<State>``.
  ///
  /// The sequence is a `StateSequence`, the type `System.states` returns,
  /// so code written against a system's states reads a store's unchanged.
  ///
  /// ```swift
  /// .task {
  ///   for await count in store.states { print(count) }
  /// }
  /// ```
  public var states: StateSequence<State> { states(buffering: .all) }

  /// The store's states, buffered for a slow reader as `policy` says (G14).
  ///
  /// ```swift
  /// for await state in store.states(buffering: .newest(1)) { await render(state) }
  /// ```
  public func states(buffering policy: StateBuffering) -> StateSequence<State> {
    StateSequence(stateStream(buffering: policy))
  }

  private func stateStream(buffering policy: StateBuffering) -> AsyncStream<State> {
    let bufferingPolicy: AsyncStream<State>.Continuation.BufferingPolicy =
      switch policy {
      case .all: .unbounded
      case .newest(let count): .bufferingNewest(count)
      case .oldest(let count): .bufferingOldest(count)
      }
    let (stream, continuation) = AsyncStream<State>.makeStream(bufferingPolicy: bufferingPolicy)
    continuation.yield(current)
    addListener(
      onState: { state in
        if case .terminated = continuation.yield(state) { return false }
        return true
      },
      finish: { continuation.finish() },
      finishOnRelease: { continuation.finish() })
    return stream
  }
}

extension Store where Event: Sendable {
  /// Sends every event of an asynchronous sequence, in order, until it ends
  /// or the calling task is cancelled.
  ///
  /// Each event hops to the main actor and is reduced there. To bind a
  /// source for the system's whole lifetime, give it to the system as
  /// `Feedback.input(_:)` instead.
  ///
  /// ```swift
  /// .task { await store.send(contentsOf: NotificationCenter.default.notifications(named: .refresh).map { _ in .refresh }) }
  /// ```
  public nonisolated func send<Events: AsyncSequence & Sendable>(
    contentsOf events: Events
  ) async rethrows where Events.Element == Event {
    for try await event in events {
      await send(event)
    }
  }
}
