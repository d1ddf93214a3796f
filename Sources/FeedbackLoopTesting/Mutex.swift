import Synchronization

/// A lock for the testing kit's own bookkeeping (never on a hot path): the
/// standard library's `Mutex`, guarding no value of its own (the fields it
/// guards are its owner's stored properties).
final class Mutex: Sendable {
  private let mutex = Synchronization.Mutex<Void>(())

  func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
    try mutex.withLock { _ in try body() }
  }
}
