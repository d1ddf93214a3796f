/// A key a person pressed, in an interactive session.
public enum Key: Hashable, Sendable {
  /// A printable character (ASCII), space included.
  case character(Character)
  /// An arrow key.
  case up, down, left, right
  /// Return or Enter.
  case enter
  /// Escape, alone.
  case escape
  /// Backspace or Delete.
  case backspace
  /// Control-C: the person interrupts the example (exit status 130).
  case interrupt
}
