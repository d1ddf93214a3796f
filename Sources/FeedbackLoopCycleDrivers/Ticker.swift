import FeedbackLoopCycle
import Synchronization

/// A clock driver: reports a tick every `interval` on the clock it is given
/// (a test clock in tests, G11), while its model says it runs.
///
/// Its model is whether it runs; a paused ticker keeps its timer but
/// reports nothing. Each run of a router iterates a timer of its own, so
/// one ticker serves a second run after a router stops.
///
/// ```swift
/// let ticker = Ticker(clock: ContinuousClock(), interval: .seconds(1))
/// ```
public final class Ticker: Driver {
  /// What a ticker reports.
  public enum Event: Equatable, Sendable {
    /// One interval passed while it ran.
    case tick
  }

  private let running: Switch
  /// The ticks.
  public let events: Ticks

  /// A ticker on `clock`, every `interval`, paused until it renders `true`.
  public init(clock: any Clock<Duration>, interval: Duration) {
    running = Switch()
    events = Ticks(clock: clock, interval: interval, running: running)
  }

  /// Runs when `model` is `true`, pauses when it is `false`.
  public func render(_ model: Bool) {
    running.isOn.store(model, ordering: .relaxed)
  }

  final class Switch: Sendable {
    let isOn = Atomic<Bool>(false)
  }

  /// The ticks of a ticker, as an asynchronous sequence.
  public struct Ticks: AsyncSequence, Sendable {
    let clock: any Clock<Duration>
    let interval: Duration
    let running: Switch

    public struct AsyncIterator: AsyncIteratorProtocol {
      let ticks: Ticks

      public mutating func next() async throws -> Event? {
        while true {
          try await ticks.clock.sleep(for: ticks.interval)
          if ticks.running.isOn.load(ordering: .relaxed) { return .tick }
        }
      }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(ticks: self) }
  }
}
