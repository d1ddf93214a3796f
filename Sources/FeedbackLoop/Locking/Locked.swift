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
/// ThreadSanitizer does not see `Mutex` hand over a contended lock on Linux:
/// its fast path is inlined (and instrumented), but a contended lock is taken
/// and given back in the runtime's `_lockSlow` and `_unlockSlow`, which are
/// not instrumented, so the sanitizer reported races between two holders of
/// this lock (the timeline file writer's thread and the loop's, in
/// `TimelineFileTests`). Each holder therefore also reads `handOver` with
/// acquire and writes it with release, inside the lock: an instrumented edge
/// from one holder to the next that the sanitizer sees. It costs a plain
/// load and a plain store on x86 and ARM.
///
/// ```swift
/// let seen = Locked<[Int]>([])
/// seen.withLock { $0.append(1) }
/// ```
/// ``InlineLocked`` is the same lock stored inline in its owner, for an
/// owner that many systems each keep.
@usableFromInline
package final class Locked<Value>: Sendable {
  @usableFromInline let lock: InlineLocked<Value>

  /// A lock guarding `value`.
  @inlinable package init(_ value: consuming sending Value) {
    lock = InlineLocked(value)
  }

  /// Runs `body` with the value while holding the lock.
  @inlinable package func withLock<Result>(
    _ body: (inout sending Value) throws -> sending Result
  ) rethrows -> sending Result {
    try lock.withLock(body)
  }
}

extension Locked where Value == Void {
  /// A lock that guards no value of its own: the fields it guards are its
  /// owner's stored properties.
  @inlinable package convenience init() { self.init(()) }

  /// Runs `body` while holding the lock.
  @inlinable package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
    try lock.withLock { _ in try body() }
  }
}

/// A lock that guards its owner's stored properties rather than a value.
package typealias Lock = Locked<Void>
