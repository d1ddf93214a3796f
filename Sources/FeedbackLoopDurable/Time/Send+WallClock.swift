import FeedbackLoop

extension Send {
  /// The system's clock as a ``WallClock``: what an effect reads the wall
  /// time from, and waits for a deadline kept in the state with.
  ///
  /// The environment's clock is taken as it is when it is a ``WallClock``.
  /// A `ContinuousClock` or a `SuspendingClock` (the default environment's
  /// clock) runs in real time, so it stands for the system's wall clock,
  /// ``WallClock/init()``. Any other clock (a test clock) has no wall time:
  /// reading this stops the program with a message that says to wrap it,
  /// `WallClock(following: clock)`, since waiting on it for a wall-clock
  /// deadline would wait for years of its time.
  ///
  /// ```swift
  /// .query(\.retryAt) { deadline in
  ///   .run { send in
  ///     try await send.wallClock.sleep(until: deadline)
  ///     send(.retry)
  ///   }
  /// }
  /// ```
  public var wallClock: WallClock {
    if let wall = clock as? WallClock { return wall }
    if clock is ContinuousClock || clock is SuspendingClock { return WallClock() }
    fatalError(
      "A durable deadline waits on the system's clock, which must tell the wall time: "
        + "give the environment a WallClock (WallClock() in an app, WallClock(following: testClock) in a test), "
        + "not a \(type(of: clock)).")
  }
}
