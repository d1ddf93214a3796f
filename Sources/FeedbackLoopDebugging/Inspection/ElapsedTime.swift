import Foundation

/// Reads the time elapsed on a clock since this reader was made, whatever
/// the clock's `Instant` type (the system's environment holds `any Clock`).
@usableFromInline
struct ElapsedTime: Sendable {
  @usableFromInline let read: @Sendable () -> Duration

  @usableFromInline init(clock: any Clock<Duration>) {
    read = Self.reader(for: clock)
  }

  private static func reader<C: Clock<Duration>>(for clock: C) -> @Sendable () -> Duration {
    let start = clock.now
    return { start.duration(to: clock.now) }
  }
}
