/// The states of a system as an asynchronous sequence: the current state
/// first, then each new one, in order. It ends when the system stops.
public struct StateSequence<State: Sendable>: AsyncSequence, Sendable {
  public typealias Element = State
  let stream: AsyncStream<State>

  public struct AsyncIterator: AsyncIteratorProtocol {
    var base: AsyncStream<State>.Iterator

    public mutating func next() async -> State? {
      await base.next()
    }
  }

  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(base: stream.makeAsyncIterator())
  }
}

/// How the states wait for a slow reader of ``System/states(buffering:isolation:)`` (G14).
///
/// Closed for good: no version adds a case.
public enum StateBuffering: Sendable, Hashable {
  /// Keep every state: a reader sees all of them; memory grows with its lag.
  case all
  /// Keep the newest `count` states and drop older ones: memory stays bounded.
  case newest(Int)
  /// Keep the oldest `count` states and drop newer ones: memory stays bounded.
  case oldest(Int)

  func streamPolicy<Element>() -> AsyncStream<Element>.Continuation.BufferingPolicy {
    switch self {
    case .all: .unbounded
    case .newest(let count): .bufferingNewest(count)
    case .oldest(let count): .bufferingOldest(count)
    }
  }
}

/// An observation made with ``System/observe(isolation:_:onStop:)``; cancel it to stop
/// receiving states.
public final class StateObservation: Sendable {
  private let onCancel: @Sendable () -> Void

  init(onCancel: @escaping @Sendable () -> Void) {
    self.onCancel = onCancel
  }

  /// Stops the observation. States of events sent before the cancellation
  /// may still be delivered; none of later ones are.
  public func cancel() {
    onCancel()
  }
}
