import Synchronization

/// A value guarded by a `Synchronization.Mutex` whose hand-over from one
/// holder to the next ThreadSanitizer sees: the package's own copy of the
/// root package's `Locked` (`Sources/FeedbackLoop/Locking/Locked.swift`,
/// which has `package` access, so this package cannot use it).
///
/// ThreadSanitizer does not see `Mutex` hand over a contended lock on Linux:
/// its fast path is inlined (and instrumented), but a contended lock is taken
/// and given back in the runtime's `_lockSlow` and `_unlockSlow`, which are
/// not instrumented, so the sanitizer reports the guarded accesses of two
/// holders as a race. The journal's lock is contended: a timed operation's
/// work, its timer and its waiter meet at it from tasks on any thread (see
/// `FirstOutcome`). Each holder therefore also reads `handOver` with acquire
/// and writes it with release, inside the lock: an instrumented edge from
/// one holder to the next. It costs a plain load and a plain store on x86
/// and ARM.
///
/// ```swift
/// let seen = Locked<[Int]>([])
/// seen.withLock { $0.append(1) }
/// ```
final class Locked<Value>: Sendable {
  private let mutex: Mutex<Value>
  /// Read and written only while `mutex` is held, for ThreadSanitizer (above).
  private let handOver = Atomic<Int>(0)

  init(_ value: consuming sending Value) {
    mutex = Mutex(value)
  }

  /// Runs `body` with the value while holding the lock.
  func withLock<Result>(_ body: (inout sending Value) throws -> sending Result) rethrows -> sending Result {
    try mutex.withLock { value in
      _ = handOver.load(ordering: .acquiring)
      defer { handOver.store(0, ordering: .releasing) }
      return try body(&value)
    }
  }
}
