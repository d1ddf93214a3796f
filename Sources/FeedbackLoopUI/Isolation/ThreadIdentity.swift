#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A thread, as the thread that made it: tells whether the caller runs on
/// that thread.
///
/// A store records the main actor's thread when it is made (its `init` is
/// isolated to the main actor) and asks, in the core's `onStop`, which may be
/// called on the thread that stopped the system, whether it is there: then
/// it can take the stop synchronously, with `MainActor.assumeIsolated`, and
/// otherwise hops. The standard library has no question "am I on the main
/// actor?" that does not stop the process when the answer is no, and
/// Foundation's `Thread.isMainThread` would bring Foundation into the module
/// for one call; a `pthread_t` of a live thread is unique, and the main
/// thread lives as long as the process.
struct ThreadIdentity: Sendable, Equatable {
  private let id: UInt

  /// The calling thread.
  static var current: ThreadIdentity {
    #if canImport(Darwin)
      ThreadIdentity(id: UInt(bitPattern: pthread_self()))
    #else
      ThreadIdentity(id: UInt(pthread_self()))
    #endif
  }

  /// Whether the caller runs on this thread.
  var isCurrent: Bool { self == .current }
}
