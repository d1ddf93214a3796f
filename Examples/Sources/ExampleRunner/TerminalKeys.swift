import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The keyboard of an interactive session: standard input in raw mode (each
/// key arrives as it is pressed, without echo), read on a thread of its own.
///
/// ``restore()`` puts the terminal back as it was; call it before exiting.
final class TerminalKeys: Sendable {
  /// Each key, as it is pressed; the sequence ends with standard input.
  let keys: AsyncStream<Key>
  /// The terminal's settings before raw mode, while raw mode is on.
  private static let original = Mutex<termios?>(nil)

  /// Whether standard input is a terminal: whether a session can be interactive.
  static var standardInputIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }

  /// Puts the terminal in raw mode and starts reading; `nil` when standard
  /// input is not a terminal.
  init?() {
    guard Self.standardInputIsTerminal else { return nil }
    var settings = termios()
    guard tcgetattr(STDIN_FILENO, &settings) == 0 else { return nil }
    Self.original.withLock { $0 = settings }
    var raw = settings
    raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG)
    _ = tcsetattr(STDIN_FILENO, TCSANOW, &raw)
    let (keys, continuation) = AsyncStream<Key>.makeStream()
    self.keys = keys
    let reader = Thread {
      while let key = Self.readKey() {
        continuation.yield(key)
      }
      continuation.finish()
    }
    reader.start()
  }

  /// Puts the terminal back as it was.
  func restore() {
    Self.restoreTerminal()
  }

  /// Puts the terminal back as it was, if raw mode is on: also when the
  /// example ends early, as when its reader closes the pipe.
  static func restoreTerminal() {
    guard var settings = original.withLock({ $0.take() }) else { return }
    _ = tcsetattr(STDIN_FILENO, TCSANOW, &settings)
  }

  /// The next key, or `nil` at the end of input.
  private static func readKey() -> Key? {
    while true {
      guard let byte = readByte() else { return nil }
      switch byte {
      case 3: return .interrupt
      case 4: return nil  // Control-D: the end of input
      case 10, 13: return .enter
      case 8, 127: return .backspace
      case 27:
        guard moreInputWaiting(), readByte() == UInt8(ascii: "[") else { return .escape }
        switch readByte() {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "C"): return .right
        case UInt8(ascii: "D"): return .left
        default: continue
        }
      case 32..<127: return .character(Character(Unicode.Scalar(byte)))
      default: continue
      }
    }
  }

  private static func readByte() -> UInt8? {
    var byte: UInt8 = 0
    return read(STDIN_FILENO, &byte, 1) == 1 ? byte : nil
  }

  /// Whether another byte follows within 50 ms: an arrow key, not Escape alone.
  private static func moreInputWaiting() -> Bool {
    var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
    return poll(&descriptor, 1, 50) > 0
  }
}
