import CycleDrivers
import FeedbackLoopCycle

/// Cycle.swift's "Integer Mutation Animated" sample: keys ask for a target,
/// and the integer walks there one step per frame. A key pressed mid-flight
/// intercepts the animation (a new target from where it is), appends to it
/// (a new target after the one playing), or removes it.
///
/// ```swift
/// let screen = AnimatedInteger.screen { print($0) }
/// let app = AnimatedInteger.router(screen: screen).start()
/// screen.press(.animateTo(5))   // 0, 1, 2, 3, 4, 5: one a frame
/// ```
public enum AnimatedInteger {
  /// The frame: the integer shown.
  public typealias Frame = Int

  /// The screen's keys, named as in Cycle.swift's timelines.
  public enum Key: Equatable, Sendable {
    /// Walk to the target from the current value (Intercepted).
    case animateTo(Int)
    /// Walk to the target after the animation playing (Appended).
    case appendTo(Int)
    /// Stop where the value is (Removed).
    case cancel
  }

  /// The screen driver's key: its name and its events, checked at compile
  /// time where the app sends them (`.driver(AnimatedInteger.keys, .cancel)`).
  public static let keys = DriverKey<Key>("screen")

  /// The frame rate of the sample: 10 frames a second, slow enough to see.
  public static let frameRate = FrameRate(framesPerSecond: 10)

  /// A terminal screen for the integer.
  public static func screen(draw: @escaping @Sendable (String) -> Void) -> TerminalScreen<String, Key> {
    TerminalScreen(draw: draw)
  }

  /// Frame filter: the value, and a bar as long as it.
  public static func screenModel(_ value: Frame) -> String {
    "\(value) " + String(repeating: "█", count: max(0, value))
  }

  /// The integers strictly after `start`, up to and including `target`.
  public static func steps(from start: Int, to target: Int) -> [Int] {
    if start < target { return Array(start + 1...target) }
    return Array((target..<start).reversed())
  }

  /// Event filter: each key plans the animation.
  public static func screenEvents(_ key: Key, _ frames: Frames<Frame>) -> FrameUpdate<Frame> {
    switch key {
    case .animateTo(let target):
      let path = steps(from: frames.current, to: target)
      return path.isEmpty ? .removeAnimation : .intercept(path)
    case .appendTo(let target):
      let path = steps(from: frames.last, to: target)
      return path.isEmpty ? .unchanged : .append(path)
    case .cancel:
      return .removeAnimation
    }
  }

  /// The router: one screen, animated at ``frameRate``.
  public static func router(screen: TerminalScreen<String, Key>, seed: Frame = 0) -> Router<Frame> {
    Router(seed: seed, frameRate: frameRate) { _ in
      [Wire(keys, driver: screen, model: screenModel, events: screenEvents)]
    }
  }
}
