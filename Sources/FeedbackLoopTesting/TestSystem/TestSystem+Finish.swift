import FeedbackLoop

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
extension TestSystem {
  /// Ends the test: checks that nothing is left to assert, then stops the
  /// system, which cancels what still runs.
  ///
  /// In exhaustive mode, it fails when events were received and not
  /// asserted, when an unmapped error was not asserted, and when effects are
  /// still in flight (except those let go with ``skipInFlightEffects(fileID:filePath:line:column:)``);
  /// the message lists which, with the feedback, the query and the time each
  /// started. A test system released without `finish()` makes the same
  /// checks, and reports them where it was created.
  ///
  /// ```swift
  /// hud.send(.tap) { $0.isVisible = true; $0.interactions = 1 }
  /// hud.advance(by: .seconds(3))
  /// hud.receive(.hide) { $0.isVisible = false }
  /// hud.finish()
  /// ```
  public func finish(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    finish(at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Lets the effects in flight now run on past the end of the test:
  /// ``finish(fileID:filePath:line:column:)`` will not report them (it stops
  /// them). For effects that wait for as long as the system lives, such as
  /// one that watches for the bottom of a list.
  ///
  /// ```swift
  /// search.skipInFlightEffects()  // the near-bottom watch waits for the user
  /// search.finish()
  /// ```
  public func skipInFlightEffects(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    settle(at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    skippedEffects.formUnion(inFlight.map(\.id))
  }

  func finish(at location: CallSite) {
    guard !isFinished else { return }
    settle(at: location)
    reportUnasserted(before: "the end of the test", at: location)
    let running = inFlight.filter { !skippedEffects.contains($0.id) }
    if exhaustivity == .on, !running.isEmpty {
      let count = running.count == 1 ? "1 effect is" : "\(running.count) effects are"
      fail(
        .effectsInFlight,
        "\(count) still in flight at the end of the test:\n"
          + running.map { "  • \($0)" }.joined(separator: "\n")
          + "\n\nAdvance the test clock until they end, send the events that end them, or let them go with "
          + "skipInFlightEffects().",
        at: location)
    }
    isFinished = true
    system.stop()
    settle(at: location)
  }
}
