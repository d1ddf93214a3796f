import Foundation
import Synchronization

/// Where an example writes: its timeline, its narration, its help.
///
/// Lines written from several threads (the loop's, the server's, the
/// keyboard's) never interleave. A test captures them with ``capturing()``.
public final class Console: Sendable {
  private let write: Mutex<@Sendable (String) -> Void>

  /// A console that hands each line, newline included, to `write`.
  public init(write: @escaping @Sendable (String) -> Void) {
    self.write = Mutex(write)
  }

  /// The process's standard output, written through at once so that a pipe
  /// sees each line as it happens.
  public static let standardOutput = Console { text in
    FileHandle.standardOutput.write(Data(text.utf8))
  }

  /// The process's standard error.
  public static let standardError = Console { text in
    FileHandle.standardError.write(Data(text.utf8))
  }

  /// A console that keeps what is written, and the transcript to read it.
  public static func capturing() -> (Console, Transcript) {
    let transcript = Transcript()
    return (Console { transcript.append($0) }, transcript)
  }

  /// Writes `text` and a newline.
  public func line(_ text: String = "") {
    write.withLock { $0(text + "\n") }
  }

  /// Writes several lines at once, never split by another writer's.
  public func lines(_ texts: [String]) {
    guard !texts.isEmpty else { return }
    write.withLock { $0(texts.joined(separator: "\n") + "\n") }
  }
}
