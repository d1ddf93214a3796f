#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A mutual-exclusion lock for the declarative layer's own bookkeeping
/// (mediators' subscribers); never taken on a system's hot path.
///
/// The mutex lives in memory of its own, allocated once, so that its address
/// never changes, as POSIX and `os_unfair_lock` require.
final class Lock: @unchecked Sendable {
  // Sendable: the only state is the platform mutex, which exists to be
  // shared between threads; it is never moved after `init`.
  #if canImport(Darwin)
    private let mutex: UnsafeMutablePointer<os_unfair_lock>
  #else
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  #endif

  init() {
    #if canImport(Darwin)
      mutex = .allocate(capacity: 1)
      mutex.initialize(to: os_unfair_lock())
    #else
      mutex = .allocate(capacity: 1)
      mutex.initialize(to: pthread_mutex_t())
      pthread_mutex_init(mutex, nil)
    #endif
  }

  deinit {
    #if !canImport(Darwin)
      pthread_mutex_destroy(mutex)
    #endif
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
    #if canImport(Darwin)
      os_unfair_lock_lock(mutex)
      defer { os_unfair_lock_unlock(mutex) }
    #else
      pthread_mutex_lock(mutex)
      defer { pthread_mutex_unlock(mutex) }
    #endif
    return try body()
  }
}
