import Synchronization

/// Whether an interactive session was interrupted with Control-C, shared by
/// every copy of its ``ExampleSession``.
final class Interruption: Sendable {
  private let interrupted = Mutex(false)

  /// Notes that the person pressed Control-C.
  func record() { interrupted.withLock { $0 = true } }

  /// Whether the person pressed Control-C.
  var happened: Bool { interrupted.withLock { $0 } }
}
