import Synchronization

/// A value that tasks share, behind a lock.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
final class Locked<Value: Sendable>: Sendable {
  private let storage: Mutex<Value>

  init(_ value: Value) { storage = Mutex(value) }

  var value: Value { storage.withLock { $0 } }

  func update(_ change: (inout Value) -> Void) {
    storage.withLock { change(&$0) }
  }
}
