/// One entry of a system's queue of work, drained in order by the thread that
/// runs the loop.
///
/// Events are not the only work: the end of an effect, a value derived by a
/// feedback and the arrival of an observer must be handled by the loop too,
/// in order with the events, because they change what the loop owns.
@usableFromInline
enum InboxItem<State: Sendable, Event: Sendable>: Sendable {
  case start
  case event(Event, EffectToken)
  /// An effect's last event, which ends it (`Effect.task`, `Effect.after`).
  case finalEvent(Event, EffectToken)
  case effectEnded(EffectToken, EffectOutcome)
  /// Boxed, like `Effect.Operation.run`, so that an item stays small.
  case control(ControlValue)
  case addObserver(StateObserver<State>)
  case removeObserver(UInt64)

  @inlinable
  var isEvent: Bool {
    switch self {
    case .event, .finalEvent: true
    default: false
    }
  }

  @inlinable
  var event: Event? {
    switch self {
    case .event(let event, _), .finalEvent(let event, _): event
    default: nil
    }
  }
}

/// A value a feedback's own task produced for the loop.
@usableFromInline
final class ControlValue: Sendable {
  @usableFromInline let feedback: Int32
  @usableFromInline let value: any Sendable

  @usableFromInline
  init(feedback: Int32, value: any Sendable) {
    self.feedback = feedback
    self.value = value
  }
}

/// How an effect's task ended.
@usableFromInline
enum EffectOutcome: Sendable {
  case finished
  case cancelled
  case failed(any Error)
}

/// A callback that receives every state of a system, in order, on the loop's
/// thread, and a way to tell it the system stopped. A class, in a chain of
/// observers like the handlers' (see ``StateLink`` and ``Linked``).
@usableFromInline
final class StateObserver<State: Sendable>: @unchecked Sendable, Linked {
  // Sendable: the fields are immutable and Sendable, but `next`, which only
  // the loop's owning thread reads and writes (SystemCore).
  @usableFromInline let id: UInt64
  @usableFromInline let onState: @Sendable (State) -> Void
  @usableFromInline let stopped: @Sendable () -> Void
  @exclusivity(unchecked) @usableFromInline var next: Unmanaged<StateObserver>?

  @usableFromInline
  init(id: UInt64, onState: @escaping @Sendable (State) -> Void, stopped: @escaping @Sendable () -> Void) {
    self.id = id
    self.onState = onState
    self.stopped = stopped
  }
}
