import Synchronization

/// A mutual-exclusion lock for the declarative layer's own bookkeeping
/// (mediators' subscribers); never taken on a system's hot path.
///
/// The standard library's `Mutex`, guarding no value of its own: the fields
/// it guards are the owner's stored properties, as before.
final class Lock: Sendable {
  private let mutex = Mutex<Void>(())

  func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
    try mutex.withLock { _ in try body() }
  }
}
