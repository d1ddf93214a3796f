import CFeedbackLoopShims

/// A plain, non-recursive lock over the platform's cheapest primitive
/// (`os_unfair_lock` on Apple platforms, a `pthread_mutex_t` elsewhere).
///
/// It is a reference so that it has a stable address; its owner calls
/// ``withLock(_:)`` and never holds it across user code.
@usableFromInline
final class Lock: @unchecked Sendable {
  // Sendable: the only state is the C lock, which is made to be shared
  // between threads; its address never changes after init.
  @usableFromInline let pointer: UnsafeMutablePointer<fl_lock_t>

  @usableFromInline
  init() {
    pointer = .allocate(capacity: 1)
    fl_lock_init(pointer)
  }

  deinit {
    fl_lock_destroy(pointer)
    pointer.deallocate()
  }

  @inlinable @inline(__always)
  func lock() { fl_lock_lock(pointer) }

  @inlinable @inline(__always)
  func unlock() { fl_lock_unlock(pointer) }

  @inlinable @inline(__always)
  func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
    lock()
    defer { unlock() }
    return try body()
  }
}
