import Foundation

/// A lock for the testing kit's own bookkeeping (never on a hot path).
final class Mutex: @unchecked Sendable {
  // Sendable: NSLock is thread-safe.
  private let lock = NSLock()

  func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body()
  }
}
