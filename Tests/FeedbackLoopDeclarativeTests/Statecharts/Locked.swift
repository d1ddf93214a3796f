import Foundation

/// A value guarded by a lock, for assertions that record what they saw.
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
