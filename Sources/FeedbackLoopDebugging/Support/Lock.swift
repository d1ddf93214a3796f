import Foundation

/// A lock around a value, for the debugging product's bookkeeping.
///
/// An `NSLock` beside its value. The package's minimum (macOS 15 / iOS 18)
/// now allows `Synchronization.Mutex`; moving every lock wrapper of the
/// library onto it is left to the house issue (one lock for all targets).
@usableFromInline
final class Locked<Value>: @unchecked Sendable {
  // Sendable: `value` is only read or written while `lock` is held.
  @usableFromInline let lock = NSLock()
  @usableFromInline var value: Value

  @usableFromInline init(_ value: Value) { self.value = value }

  @inlinable func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}

/// Reads the time elapsed on a clock since this reader was made, whatever
/// the clock's `Instant` type (the system's environment holds `any Clock`).
@usableFromInline
struct ElapsedTime: Sendable {
  @usableFromInline let read: @Sendable () -> Duration

  @usableFromInline init(clock: any Clock<Duration>) {
    read = Self.reader(for: clock)
  }

  private static func reader<C: Clock<Duration>>(for clock: C) -> @Sendable () -> Duration {
    let start = clock.now
    return { start.duration(to: clock.now) }
  }
}
