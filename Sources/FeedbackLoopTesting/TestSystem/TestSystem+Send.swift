import FeedbackLoop

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
extension TestSystem {
  /// Sends `event` as the outside world would (a user, an input), and
  /// checks how it changes the state.
  ///
  /// The event is reduced before `send` returns; then the effects it
  /// starts run until each waits for the clock or something outside. The
  /// closure receives the state before the event and sets it to what the
  /// test expects after; omit it when the state must not change. A mismatch
  /// is reported with a diff of the expected and actual state.
  ///
  /// In exhaustive mode, events that effects produced before and that the
  /// test has not asserted with ``receive(_:assert:fileID:filePath:line:column:)``
  /// are reported first.
  ///
  /// ```swift
  /// hud.send(.tap) {
  ///   $0.isVisible = true
  ///   $0.interactions = 1
  /// }
  /// ```
  public func send(
    _ event: Event,
    assert expectedChange: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let location = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let description = EventFormat.describe(event)
    guard checkNotFinished("Sending \(description)", at: location) else { return }
    settle(at: location)
    reportUnasserted(before: "sending \(description)", at: location)
    sentReduction = nil
    log.expectSentEvent()
    system.send(event)
    settle(at: location)
    guard !isFinished else { return }
    guard let reduction = sentReduction else {
      log.abandonSentEvent()
      fail(
        .eventNotReduced,
        "Sending \(description): the event was not reduced. Has the system stopped, or is it not of "
          + "SystemIsolation.sendingThread?",
        at: location)
      return
    }
    sentReduction = nil
    checkState(after: "sending", reduction, expectedChange: expectedChange, at: location)
  }
}
