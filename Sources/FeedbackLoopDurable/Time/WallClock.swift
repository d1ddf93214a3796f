import Foundation

/// A clock of wall time, whose instants are `Codable`: a deadline kept in a
/// durable system's state means the same moment after a restart, in another
/// process or on another machine.
///
/// A `ContinuousClock.Instant` counts from the machine's boot, so it means
/// nothing to the next process; a `WallClock.Instant` counts from the Unix
/// epoch (1970-01-01 00:00:00 UTC), in nanoseconds. Give a durable system a
/// wall clock as its environment's clock, keep deadlines in the state, and
/// let `Feedback.deadline(_:name:fileID:line:fire:)` (or an effect that
/// waits with `Send.wallClock`) wait for them.
///
/// ```swift
/// let reminders = try await DurableSystem.restore(
///   id: "reminders", writer: writer, initial: Reminders(), reduce: Reminders.reduce,
///   feedbacks: [.deadline(\.nextReminder) { .remind(at: $0) }],
///   environment: SystemEnvironment(clock: WallClock()))
/// reminders.send(.remindIn(.seconds(600), from: WallClock().now))
/// ```
///
/// In a test, a wall clock that follows the testing kit's `TestClock` moves
/// only when the test clock does: make one, and use the same one for every
/// system the test restores, as the real wall clock outlives processes.
///
/// ```swift
/// let testClock = TestClock(executor: executor)
/// let wall = WallClock(following: testClock)
/// let environment = SystemEnvironment(clock: wall, effectExecutor: executor)
/// ```
///
/// The system's wall clock (``init()``) reads the time from `Date` and waits
/// with `ContinuousClock`, then reads the time again: if the wall time was set
/// back while it waited, it waits for the rest. A wall time set forward wakes
/// it late, by up to the jump.
public struct WallClock: Clock, Sendable {
  public typealias Duration = Swift.Duration

  /// A moment of wall time: nanoseconds since the Unix epoch.
  ///
  /// It encodes as a single integer (the nanoseconds), so that it reads
  /// the same in any codec and sorts in a database column. Durations finer
  /// than a nanosecond are rounded toward zero; instants beyond about 292
  /// years from 1970 saturate at ``distantPast`` and ``distantFuture``
  /// rather than overflow.
  ///
  /// ```swift
  /// let deadline = WallClock().now.advanced(by: .seconds(10))
  /// let bytes = try JSONEncoder().encode(deadline)  // "1795000010000000000"
  /// ```
  public struct Instant: InstantProtocol, Codable, Hashable, Sendable, CustomStringConvertible {
    /// The nanoseconds since 1970-01-01 00:00:00 UTC.
    public let nanosecondsSinceUnixEpoch: Int64

    /// The instant `nanosecondsSinceUnixEpoch` nanoseconds after the Unix epoch.
    public init(nanosecondsSinceUnixEpoch: Int64) {
      self.nanosecondsSinceUnixEpoch = nanosecondsSinceUnixEpoch
    }

    /// The instant of `date`, to the nanosecond.
    public init(_ date: Date) {
      self.init(nanosecondsSinceUnixEpoch: Self.nanoseconds(of: .seconds(date.timeIntervalSince1970)))
    }

    /// The Unix epoch, 1970-01-01 00:00:00 UTC.
    public static let unixEpoch = Instant(nanosecondsSinceUnixEpoch: 0)
    /// The latest instant there is: a deadline that never comes.
    public static let distantFuture = Instant(nanosecondsSinceUnixEpoch: .max)
    /// The earliest instant there is.
    public static let distantPast = Instant(nanosecondsSinceUnixEpoch: .min)

    /// This instant as a `Date` (to its precision, about a microsecond today).
    public var date: Date { Date(timeIntervalSince1970: Double(nanosecondsSinceUnixEpoch) / 1e9) }

    public func advanced(by duration: Duration) -> Instant {
      let (sum, overflow) = nanosecondsSinceUnixEpoch.addingReportingOverflow(Self.nanoseconds(of: duration))
      if overflow { return duration > .zero ? .distantFuture : .distantPast }
      return Instant(nanosecondsSinceUnixEpoch: sum)
    }

    public func duration(to other: Instant) -> Duration {
      // In 128 bits: the distance between two 64-bit counts may pass 64 bits.
      .nanoseconds(Int128(other.nanosecondsSinceUnixEpoch) - Int128(nanosecondsSinceUnixEpoch))
    }

    public static func < (lhs: Instant, rhs: Instant) -> Bool {
      lhs.nanosecondsSinceUnixEpoch < rhs.nanosecondsSinceUnixEpoch
    }

    public init(from decoder: any Decoder) throws {
      nanosecondsSinceUnixEpoch = try decoder.singleValueContainer().decode(Int64.self)
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(nanosecondsSinceUnixEpoch)
    }

    /// The instant in ISO 8601, in UTC, to the nanosecond:
    /// `2026-11-27T22:30:00.000000000Z`.
    public var description: String {
      let (seconds, nanoseconds) = nanosecondsSinceUnixEpoch.quotientAndRemainder(dividingBy: 1_000_000_000)
      // Floored, so that an instant before 1970 prints its own second.
      let wholeSeconds = nanoseconds < 0 ? seconds - 1 : seconds
      let fraction = nanoseconds < 0 ? nanoseconds + 1_000_000_000 : nanoseconds
      let formatter = ISO8601DateFormatter()
      formatter.timeZone = TimeZone(identifier: "UTC")
      let text = formatter.string(from: Date(timeIntervalSince1970: Double(wholeSeconds)))
      let digits = String(fraction)
      return text.dropLast() + "." + String(repeating: "0", count: 9 - digits.count) + digits + "Z"
    }

    /// Whole nanoseconds of `duration`, rounded toward zero, saturated.
    static func nanoseconds(of duration: Duration) -> Int64 {
      let (seconds, attoseconds) = duration.components
      let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
      if overflow { return seconds < 0 ? .min : .max }
      let (sum, overflowSum) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
      if overflowSum { return seconds < 0 ? .min : .max }
      return sum
    }
  }

  private let readNow: @Sendable () -> Instant
  private let wait: @Sendable (Duration) async throws -> Void

  /// The system's wall clock: the time of `Date`, waits on `ContinuousClock`.
  public init() {
    readNow = { Instant(Date()) }
    wait = { try await ContinuousClock().sleep(for: $0) }
  }

  /// A wall clock that moves as `base` does: `start` now, then every
  /// duration `base` moves on. Waits sleep on `base`, so a test clock
  /// drives them.
  ///
  /// ```swift
  /// let wall = WallClock(following: testClock)
  /// testClock.advance(by: .seconds(4))
  /// wall.now  // WallClock.Instant.unixEpoch.advanced(by: .seconds(4))
  /// ```
  ///
  /// - Parameters:
  ///   - base: the clock whose time this one follows.
  ///   - start: the wall time when the wall clock is made.
  public init<Base: Clock<Duration>>(following base: Base, startingAt start: Instant = .unixEpoch) {
    let origin = base.now
    readNow = { start.advanced(by: origin.duration(to: base.now)) }
    wait = { try await base.sleep(for: $0) }
  }

  /// The current wall time.
  public var now: Instant { readNow() }

  /// One nanosecond: an instant's precision.
  public var minimumResolution: Duration { .nanoseconds(1) }

  /// Suspends until the wall time reaches `deadline` (at once if it has),
  /// or throws `CancellationError` when the task is cancelled first.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    while true {
      let remaining = now.duration(to: deadline)
      if remaining <= .zero { return }
      try await wait(remaining)
    }
  }
}
