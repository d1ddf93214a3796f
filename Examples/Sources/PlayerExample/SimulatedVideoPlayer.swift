import Synchronization

/// A video player whose seeks take `latency` on a clock: the one the
/// examples run, on a real clock or a test clock.
public final class SimulatedVideoPlayer: VideoPlayer {
  /// The clock the seeks take their time on.
  public let clock: any Clock<Duration>
  /// How long a seek takes.
  public let latency: Duration
  private let positions = Mutex<[Int]>([])

  /// A player whose seeks take `latency` on `clock`.
  public init(clock: any Clock<Duration>, latency: Duration = .milliseconds(500)) {
    self.clock = clock
    self.latency = latency
  }

  /// Every position a seek was asked for, in order.
  public var seeks: [Int] { positions.withLock { $0 } }

  /// Notes `position`, then takes ``latency`` on ``clock``.
  public func seek(to position: Int) async throws {
    positions.withLock { $0.append(position) }
    try await clock.sleep(for: latency)
  }
}
