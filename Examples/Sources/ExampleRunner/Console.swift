import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where an example writes: its timeline, its narration, its help.
///
/// Lines written from several threads (the loop's, the server's, the
/// keyboard's) never interleave. A test captures them with ``capturing()``.
public final class Console: Sendable {
  private let output: Mutex<@Sendable (String) -> Void>

  /// A console that hands each line, newline included, to `write`.
  public init(write: @escaping @Sendable (String) -> Void) {
    self.output = Mutex(write)
  }

  /// The process's standard output, written through at once so that a pipe
  /// sees each line as it happens. When the reader has gone (`… | head`),
  /// the example ends quietly, with the terminal restored.
  public static let standardOutput = Console { text in
    writeAll(text, to: STDOUT_FILENO)
  }

  /// The process's standard error.
  public static let standardError = Console { text in
    writeAll(text, to: STDERR_FILENO)
  }

  /// Writes all of `text` to `descriptor`; exits, with status 0, when the
  /// descriptor is a pipe whose reader has gone.
  private static func writeAll(_ text: String, to descriptor: Int32) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      if written > 0 {
        bytes = bytes.dropFirst(written)
      } else if written < 0, errno == EINTR {
        continue
      } else {
        TerminalKeys.restoreTerminal()
        exit(0)
      }
    }
  }

  /// A console that keeps what is written, and the transcript to read it.
  public static func capturing() -> (Console, Transcript) {
    let transcript = Transcript()
    return (Console { transcript.append($0) }, transcript)
  }

  /// Writes `text` and a newline.
  public func line(_ text: String = "") {
    output.withLock { $0(text + "\n") }
  }

  /// Writes several lines at once, never split by another writer's.
  public func lines(_ texts: [String]) {
    guard !texts.isEmpty else { return }
    output.withLock { $0(texts.joined(separator: "\n") + "\n") }
  }
}
