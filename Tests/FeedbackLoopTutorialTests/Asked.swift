import Synchronization

/// The words a fake dictionary was asked for, from the effects' tasks.
final class Asked: Sendable {
  private let asked = Mutex<[String]>([])

  func append(_ word: String) { asked.withLock { $0.append(word) } }
  var words: [String] { asked.withLock { $0 } }
}
