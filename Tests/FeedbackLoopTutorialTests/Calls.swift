import Synchronization

/// What a fake was called with, from the effects' tasks, in order.
final class Calls: Sendable {
  private let calls = Mutex<[String]>([])

  func record(_ value: String) { calls.withLock { $0.append(value) } }
  var values: [String] { calls.withLock { $0 } }
}
