/// A mediator that passes each value on to its subscribers and keeps none
/// (the Feedbacks library's `PassthroughMediator`, Combine's `PassthroughSubject`).
///
/// A system attached to it receives the values sent after it attached.
///
/// ```swift
/// let mediator = PassthroughMediator<Int>()
/// let systemA = System { ... }
///   .attach(to: mediator, onSystemState: LoadedState.self, emitMediatorValue: { _ in 1701 })
/// let systemB = System { ... }
///   .attach(to: mediator, onMediatorValue: 1701, emitSystemEvent: { _ in LoadedDoneEvent() })
/// ```
public final class PassthroughMediator<Value: Sendable>: Mediator {
  private let subscribers = MediatorSubscribers<Value>()

  /// A mediator with no subscriber.
  public init() {}

  public func send(_ value: Value) {
    subscribers.deliver(value)
  }

  public func subscribe(_ receive: @escaping @Sendable (Value) -> Void) -> MediatorSubscription {
    subscribers.add(receive)
  }
}
