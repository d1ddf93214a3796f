/// A mediator that keeps the last value sent, and gives it to each new
/// subscriber first (the Feedbacks library's `CurrentValueMediator`, Combine's
/// `CurrentValueSubject`).
///
/// A system attached to it receives the current value when it attaches.
///
/// ```swift
/// let session = CurrentValueMediator(SessionStatus.signedOut)
/// let profile = System { ... }
///   .attach(to: session, onMediatorValue: .signedIn, emitSystemEvent: { _ in RefreshEvent() })
/// session.send(.signedIn)
/// session.value  // .signedIn
/// ```
public final class CurrentValueMediator<Value: Sendable>: Mediator {
  private let subscribers = MediatorSubscribers<Value>()
  private let storage: Storage

  /// The current value, under the subscribers' lock, so that a new
  /// subscriber gets the value and every later one with nothing between.
  // Sendable: `value` is read and written only inside
  // `subscribers.withLock`, `deliver`'s `update` or `add(_:current:)`'s `current`
  // (both run under that lock); `Storage` is private to this mediator.
  private final class Storage: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
  }

  /// A mediator whose current value is `value`.
  public init(_ value: Value) {
    storage = Storage(value)
  }

  /// The last value sent, or the initial one.
  public var value: Value {
    subscribers.withLock { storage.value }
  }

  public func send(_ value: Value) {
    subscribers.deliver(value) { storage.value = value }
  }

  public func subscribe(_ receive: @escaping @Sendable (Value) -> Void) -> MediatorSubscription {
    subscribers.add(receive) { storage.value }
  }
}
