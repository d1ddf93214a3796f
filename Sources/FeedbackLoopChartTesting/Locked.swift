import Foundation

/// A value guarded by a lock. `Synchronization.Mutex` needs macOS 15; the
/// package supports macOS 14, hence this.
final class Locked<Value>: @unchecked Sendable {
  // Sendable: `value` is only read or written while `lock` is held.
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) { self.value = value }

  func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
    lock.lock()
    defer { lock.unlock() }
    return body(&value)
  }
}
