/// The time of an interactive session, or of a scripted one that talks to a
/// real server: the `ContinuousClock`, measured from the session's start.
struct RealTime: Sendable {
  let clock = ContinuousClock()
  let start: ContinuousClock.Instant

  init() {
    start = clock.now
  }

  /// The time since the session started, for the timeline.
  var now: @Sendable () -> Duration {
    { [clock, start] in start.duration(to: clock.now) }
  }
}
