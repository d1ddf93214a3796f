import Foundation

/// A lock for test bookkeeping.
final class NSLockish: @unchecked Sendable {
  // Sendable: NSLock is thread-safe.
  private let lock = NSLock()
  func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body()
  }
}

/// Records values from any thread, in order.
final class Recorder<Value: Sendable>: @unchecked Sendable {
  // Sendable: `values` is guarded by `lock`.
  private let lock = NSLockish()
  private var values: [Value] = []
  func append(_ value: Value) { lock.withLock { values.append(value) } }
  var all: [Value] { lock.withLock { values } }
  func removeAll() { lock.withLock { values.removeAll() } }
}
