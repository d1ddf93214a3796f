import Synchronization

/// What a capturing ``Console`` was given, for tests.
public final class Transcript: Sendable {
  private let text = Mutex("")

  init() {}

  func append(_ more: String) {
    text.withLock { $0 += more }
  }

  /// Everything written so far.
  public var contents: String { text.withLock { $0 } }

  /// Everything written so far, line by line.
  public var lines: [String] {
    contents.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLast(
      contents.hasSuffix("\n") ? 1 : 0)
  }
}
