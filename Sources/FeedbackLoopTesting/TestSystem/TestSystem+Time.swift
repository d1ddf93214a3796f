import FeedbackLoop

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
extension TestSystem {
  /// Moves the test clock forward by `duration`, waking each effect whose
  /// sleep ends on the way, at its own deadline, and running it (and what it
  /// starts) before time moves on.
  ///
  /// Events that the woken effects produce are then asserted with
  /// ``receive(_:assert:fileID:filePath:line:column:)``.
  ///
  /// ```swift
  /// hud.advance(by: .seconds(2))   // nothing yet
  /// hud.advance(by: .seconds(1))   // the 3 s timer fires
  /// hud.receive(.hide) { $0.isVisible = false }
  /// ```
  public func advance(
    by duration: Duration = .zero,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let location = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    guard checkNotFinished("Advancing the clock", at: location) else { return }
    guard duration >= .zero else {
      fail(.misuse, "advance(by: \(duration)): a test clock does not go backwards.", at: location)
      return
    }
    settle(at: location)
    let target = clock.now.advanced(by: duration)
    while let deadline = clock.nextDeadline, deadline <= target {
      clock.advance(to: deadline)
      settle(at: location)
    }
    clock.advance(to: target)
    settle(at: location)
  }

  /// Moves the test clock forward until no effect sleeps on it any more,
  /// running each woken effect before time moves on.
  ///
  /// Fails after `limit` wakes: a timer that repeats forever never lets the
  /// clock run out; advance it by a duration instead.
  ///
  /// ```swift
  /// intro.send(.hasIntroStarted(true)) { $0 = .showing(secondsLeft: 10) }
  /// intro.run()  // the countdown, to its end
  /// ```
  public func run(
    limit: Int = 10_000,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let location = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    guard checkNotFinished("Running the clock", at: location) else { return }
    settle(at: location)
    var wakes = 0
    while let deadline = clock.nextDeadline {
      guard wakes < limit else {
        fail(
          .misuse,
          "run() stopped after \(limit) wakes of the test clock, at \(TimeFormat.short(clock.now.offset)): "
            + "an effect sleeps again each time it wakes. Use advance(by:) instead.",
          at: location)
        return
      }
      clock.advance(to: deadline)
      settle(at: location)
      wakes += 1
    }
  }
}
