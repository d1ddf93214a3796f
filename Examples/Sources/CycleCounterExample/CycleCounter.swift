import CycleDrivers
import FeedbackLoopCycle

/// Cycle.swift's Counter sample, the Cycle way: a frame, two drivers (a
/// terminal screen and a clock), their filters, and a router.
///
/// The screen renders "count 3 · 12s" and reports its keys; the clock
/// ticks every second while the count is running. Neither driver knows the
/// frame: the frame filters make their models, the event filters make the
/// next frame from their events.
///
/// ```swift
/// let screen = CycleCounter.screen { print($0) }
/// let ticker = Ticker(clock: ContinuousClock(), interval: .seconds(1))
/// let app = CycleCounter.router(screen: screen, ticker: ticker).start()
/// screen.press(.increment)
/// ```
public enum CycleCounter {
  /// The frame: the whole application at one moment.
  public struct Frame: Equatable, Sendable {
    /// The count.
    public var count = 0
    /// Seconds counted while the clock ran.
    public var seconds = 0
    /// Whether the clock runs.
    public var isRunning = true

    /// A frame.
    public init(count: Int = 0, seconds: Int = 0, isRunning: Bool = true) {
      self.count = count
      self.seconds = seconds
      self.isRunning = isRunning
    }
  }

  /// The screen's keys: the screen's events, which the screen owns.
  public enum Key: Equatable, Sendable {
    case increment
    case decrement
    case pause
  }

  /// The screen driver's key: its name and its events, checked at compile
  /// time where the app sends them (`.driver(CycleCounter.keys, .increment)`).
  public static let keys = DriverKey<Key>("screen")

  /// The clock driver's key.
  public static let clock = DriverKey<Ticker.Event>("clock")

  /// A terminal screen for the counter.
  public static func screen(draw: @escaping @Sendable (String) -> Void) -> TerminalScreen<String, Key> {
    TerminalScreen(draw: draw)
  }

  /// Frame filter of the screen: what it shows.
  public static func screenModel(_ frame: Frame) -> String {
    "count \(frame.count) · \(frame.seconds)s\(frame.isRunning ? "" : " (paused)")"
  }

  /// Event filter of the screen.
  public static func screenEvents(_ key: Key, _ frames: Frames<Frame>) -> FrameUpdate<Frame> {
    var next = frames.current
    switch key {
    case .increment: next.count += 1
    case .decrement: next.count -= 1
    case .pause: next.isRunning.toggle()
    }
    return .frame(next)
  }

  /// Event filter of the clock: a tick counts a second.
  public static func clockEvents(_ tick: Ticker.Event, _ frames: Frames<Frame>) -> FrameUpdate<Frame> {
    var next = frames.current
    next.seconds += 1
    return .frame(next)
  }

  /// The router: the seed frame, the two drivers, their filters.
  public static func router(
    screen: TerminalScreen<String, Key>, ticker: Ticker, seed: Frame = Frame()
  ) -> Router<Frame> {
    Router(seed: seed) { _ in
      [
        Wire(keys, driver: screen, model: screenModel, events: screenEvents),
        Wire(clock, driver: ticker, model: \.isRunning, events: clockEvents),
      ]
    }
  }
}
