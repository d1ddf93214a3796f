import FeedbackLoop

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
extension TestSystem {
  /// Checks that the next event the system received from its effects (or
  /// inputs) is `expected`, and how it changed the state.
  ///
  /// Effects run before the check, until each waits for the clock or
  /// something outside; to let a timer fire, ``advance(by:fileID:filePath:line:column:)``
  /// first. In exhaustive mode the next event must be `expected`; otherwise
  /// the events before the first `expected` are skipped.
  ///
  /// ```swift
  /// hud.advance(by: .seconds(3))
  /// hud.receive(.hide) { $0.isVisible = false }
  /// ```
  public func receive(
    _ expected: Event,
    assert expectedChange: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where Event: Equatable {
    receive(
      EventFormat.describe(expected),
      expected: expected,
      matching: { $0 == expected },
      expectedChange: expectedChange,
      at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Checks that the next event received satisfies `matches`, and how it
  /// changed the state: for events that are not `Equatable`, such as those
  /// carrying an error.
  ///
  /// ```swift
  /// search.receive(where: { if case .failure = $0 { true } else { false } }) {
  ///   $0 = .error(.offline, page1)
  /// }
  /// ```
  public func receive(
    where matches: (Event) -> Bool,
    assert expectedChange: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    receive(
      "an event matching the predicate",
      expected: nil,
      matching: matches,
      expectedChange: expectedChange,
      at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Forgets the events received so far without asserting them.
  ///
  /// ```swift
  /// ticker.advance(by: .seconds(60))
  /// ticker.skipReceivedEvents()  // sixty ticks, none of interest here
  /// ```
  public func skipReceivedEvents(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    settle(at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    received.removeAll()
  }

  /// Checks that an effect failed with an error that no `catch` mapped to
  /// an event (the system logged it and went on, G12), and that the error
  /// satisfies `matches`.
  ///
  /// In exhaustive mode every such error must be asserted like this.
  ///
  /// ```swift
  /// sync.advance(by: .seconds(1))
  /// sync.receiveUnmappedError { $0 is URLError }
  /// ```
  public func receiveUnmappedError(
    matching matches: (any Error) -> Bool = { _ in true },
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let location = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    settle(at: location)
    guard let failure = unmappedErrors.popFirst() else {
      fail(.noEventReceived, "Expected an effect to fail with an unmapped error, but none did.", at: location)
      return
    }
    guard matches(failure.error) else {
      fail(
        .unexpectedEvent,
        "An effect failed with an unmapped error that does not match: \(failure.error) (\(failure.effect))",
        at: location)
      return
    }
  }

  private func receive(
    _ description: String,
    expected: Event?,
    matching matches: (Event) -> Bool,
    expectedChange: ((inout State) throws -> Void)?,
    at location: CallSite
  ) {
    guard checkNotFinished("Receiving \(description)", at: location) else { return }
    settle(at: location)
    guard !received.isEmpty else {
      fail(
        .noEventReceived,
        "Expected to receive \(description), but no event was received. \(inFlightSummary)"
          + (clock.nextDeadline == nil ? "" : "\nAdvance the test clock to let the effects that wait on it go on."),
        at: location)
      return
    }
    let reduction: Reduction
    switch exhaustivity {
    case .on:
      let next = received.removeFirst()
      guard matches(next.event) else {
        var message = "Expected to receive \(description), but received \(describe(next)) first"
        if let expected {
          message += ":\n\n" + StateDiff.describe(expected: expected, actual: next.event)
        } else {
          message += "."
        }
        fail(.unexpectedEvent, message, at: location)
        return
      }
      reduction = next
    case .off:
      guard let index = received.firstIndex(where: { matches($0.event) }) else {
        fail(
          .unexpectedEvent,
          "Expected to receive \(description), but it is not among the events received:\n"
            + received.map { "  • \(describe($0))" }.joined(separator: "\n"),
          at: location)
        received.removeAll()
        return
      }
      reduction = received[index]
      received.removeFirst(index + 1)
    }
    checkState(after: "receiving", reduction, expectedChange: expectedChange, at: location)
  }
}
