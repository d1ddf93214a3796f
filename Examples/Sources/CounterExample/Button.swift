/// A button: the taps a person makes on it, as an asynchronous sequence.
///
/// It stands in for a UIKit control's `controlEvents(.touchUpInside)`. Taps
/// made before a system reads them wait for it, in order. A button's taps
/// are read by one system.
///
/// ```swift
/// let plus = Button()
/// plus.tap()
/// for await _ in plus.taps { print("tapped") }
/// ```
public final class Button: Sendable {
  /// Every tap, in the order they were made.
  public let taps: AsyncStream<Void>
  private let continuation: AsyncStream<Void>.Continuation

  /// A button nobody has tapped yet.
  public init() {
    (taps, continuation) = AsyncStream<Void>.makeStream()
  }

  /// Taps the button.
  public func tap() {
    continuation.yield()
  }
}
