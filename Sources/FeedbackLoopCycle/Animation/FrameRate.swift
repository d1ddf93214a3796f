/// How many frames a second an animation plays: one tick of the router's
/// clock (the system's injected clock, G11) per frame.
///
/// ```swift
/// Router(seed: 0, frameRate: FrameRate(framesPerSecond: 60)) { ... }
/// ```
public struct FrameRate: Sendable, Hashable, CustomStringConvertible {
  /// The frames per second, greater than zero.
  public let framesPerSecond: Int

  /// A frame rate of `framesPerSecond`, which must be greater than zero.
  public init(framesPerSecond: Int) {
    guard framesPerSecond > 0 else {
      fatalError("FeedbackLoopCycle: a frame rate must be greater than zero frames per second; got \(framesPerSecond)")
    }
    self.framesPerSecond = framesPerSecond
  }

  /// 60 frames a second.
  public static let sixty = FrameRate(framesPerSecond: 60)

  /// The time between two ticks.
  public var interval: Duration { .seconds(1) / framesPerSecond }

  public var description: String { "\(framesPerSecond) fps" }
}
