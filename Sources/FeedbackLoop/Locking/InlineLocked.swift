import Synchronization

/// ``Locked``'s lock, stored inline in its owner rather than in an object of
/// its own: for a class that keeps many of them alive (one per durable
/// system), where the extra object's header and allocation are a large
/// part of an idle system's memory. Not copyable, like `Mutex`: it lives in
/// a class's stored property (`let`), and a closure that needs the lock
/// captures the class.
///
/// It hands a contended lock over to ThreadSanitizer the way ``Locked``
/// does (its documentation says why).
///
/// ```swift
/// final class Counter: Sendable {
///   let count = InlineLocked(0)
///   func increment() { count.withLock { $0 += 1 } }
/// }
/// ```
@frozen @usableFromInline
package struct InlineLocked<Value>: ~Copyable, Sendable {
  @usableFromInline let mutex: Mutex<Value>
  /// Read and written only while `mutex` is held, for ThreadSanitizer.
  @usableFromInline let handOver = Atomic<Int>(0)

  /// A lock guarding `value`.
  @inlinable package init(_ value: consuming sending Value) {
    mutex = Mutex(value)
  }

  /// Runs `body` with the value while holding the lock.
  @inlinable package borrowing func withLock<Result>(
    _ body: (inout sending Value) throws -> sending Result
  ) rethrows -> sending Result {
    try mutex.withLock { value in
      _ = handOver.load(ordering: .acquiring)
      defer { handOver.store(0, ordering: .releasing) }
      return try body(&value)
    }
  }
}
