import FeedbackLoop

/// A communication bus between systems that do not know each other (the
/// Feedbacks library's mediators): one system sends values to it, others receive them.
///
/// Attach systems to a mediator with `System.attach(to:onSystemState:emitMediatorValue:)`
/// and `System.attach(to:onMediatorValue:emitSystemEvent:)`. The library has
/// two: ``PassthroughMediator`` and ``CurrentValueMediator``.
///
/// ```swift
/// let mediator = PassthroughMediator<Int>()
/// let subscription = mediator.subscribe { value in print(value) }
/// mediator.send(1701)  // prints 1701
/// subscription.cancel()
/// ```
public protocol Mediator<Value>: AnyObject, Sendable {
  /// The values the mediator carries.
  associatedtype Value: Sendable

  /// Sends `value` to every subscriber, synchronously, in the order they
  /// subscribed.
  func send(_ value: Value)

  /// Calls `receive` with the values sent from now on (and, for a mediator
  /// that has a current value, with that value first), until the returned
  /// subscription is cancelled.
  func subscribe(_ receive: @escaping @Sendable (Value) -> Void) -> MediatorSubscription
}

/// A subscription to a ``Mediator``; cancel it to stop receiving values.
///
/// ```swift
/// let subscription = mediator.subscribe { print($0) }
/// subscription.cancel()
/// ```
public final class MediatorSubscription: Sendable {
  private let onCancel: @Sendable () -> Void

  init(onCancel: @escaping @Sendable () -> Void) {
    self.onCancel = onCancel
  }

  /// Stops the subscription. A value being delivered may still arrive;
  /// none sent afterwards does. Cancelling twice does nothing more.
  public func cancel() {
    onCancel()
  }
}

/// The subscribers of a mediator, under a lock. Values are delivered
/// outside the lock, so a subscriber may send to the mediator or subscribe
/// without deadlocking.
final class MediatorSubscribers<Value: Sendable>: @unchecked Sendable {
  // Sendable: `subscribers` and `nextID` are private and read or written
  // only inside `lock.withLock` (`add`, `remove`, `deliver`, and `withLock`,
  // whose callers touch only their own state), so no two threads reach
  // them at once; the receivers are `@Sendable` and called outside the lock.
  private let lock = Lock()
  private var subscribers: [(id: UInt64, receive: @Sendable (Value) -> Void)] = []
  private var nextID: UInt64 = 0

  /// Adds a subscriber; `current`, called under the lock, gives the value
  /// to deliver first (for a current-value mediator), which is delivered
  /// before the subscription returns.
  func add(
    _ receive: @escaping @Sendable (Value) -> Void,
    current: () -> Value? = { nil }
  ) -> MediatorSubscription {
    let (id, first) = lock.withLock { () -> (UInt64, Value?) in
      nextID += 1
      subscribers.append((nextID, receive))
      return (nextID, current())
    }
    if let first { receive(first) }
    return MediatorSubscription { [weak self] in self?.remove(id) }
  }

  /// Runs `body` under the lock.
  func withLock<Result>(_ body: () -> Result) -> Result {
    lock.withLock(body)
  }

  private func remove(_ id: UInt64) {
    lock.withLock { subscribers.removeAll { $0.id == id } }
  }

  /// Delivers `value` to the subscribers present now; `update`, called
  /// under the lock first, records it (for a current-value mediator).
  func deliver(_ value: Value, update: () -> Void = {}) {
    let receivers = lock.withLock { () -> [@Sendable (Value) -> Void] in
      update()
      return subscribers.map(\.receive)
    }
    for receive in receivers { receive(value) }
  }
}
