import Synchronization

/// A value guarded by a lock: the one lock of the library's targets (the
/// declarative layer's mediators, the testing kit's clock and executor, the
/// debugging product's recorders, the chart-testing coverage), shared with
/// `package` access so that no target writes a wrapper of its own.
///
/// It is a class around the standard library's `Synchronization.Mutex`
/// because `Mutex` is not copyable: a class lets an owner share the lock with
/// the closures it hands out. It is never on a system's per-event path; the
/// loop's own lock is the control word's, in `CFeedbackLoopShims`, which
/// shares one allocation with the word it guards.
///
/// ```swift
/// let seen = Locked<[Int]>([])
/// seen.withLock { $0.append(1) }
/// ```
@usableFromInline
package final class Locked<Value>: Sendable {
  @usableFromInline let mutex: Mutex<Value>

  /// A lock guarding `value`.
  @inlinable package init(_ value: consuming sending Value) {
    mutex = Mutex(value)
  }

  /// Runs `body` with the value while holding the lock.
  @inlinable package func withLock<Result>(
    _ body: (inout sending Value) throws -> sending Result
  ) rethrows -> sending Result {
    try mutex.withLock { value in try body(&value) }
  }
}

extension Locked where Value == Void {
  /// A lock that guards no value of its own: the fields it guards are its
  /// owner's stored properties.
  @inlinable package convenience init() { self.init(()) }

  /// Runs `body` while holding the lock.
  @inlinable package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
    try mutex.withLock { _ in try body() }
  }
}

/// A lock that guards its owner's stored properties rather than a value.
package typealias Lock = Locked<Void>
