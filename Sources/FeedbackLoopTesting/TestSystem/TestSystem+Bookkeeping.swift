import FeedbackLoop

/// How a test system turns what its monitor saw into what the test asserts.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
extension TestSystem {
  /// Runs the effects until each waits for something outside (the clock,
  /// an input) or has ended, then reads what the monitor saw. A system whose
  /// effects never come to rest is reported, and stopped.
  func settle(at location: CallSite? = nil) {
    if !executor.runUntilIdle(limit: runawayLimit) {
      fail(
        .runaway,
        "The system's effects ran \(runawayLimit) steps without coming to rest: a feedback may answer each "
          + "state with an event that makes a new state, forever. The system under test is stopped.",
        at: location ?? creationSite)
      stopReason = "the system under test was stopped as a runaway"
      isFinished = true
      system.stop()
      executor.runUntilIdle(limit: runawayLimit)
    }
    absorb()
  }

  /// Reads what the monitor saw: the timeline, the events received, the
  /// effects in flight.
  func absorb() {
    for record in log.take() {
      let time = record.time
      switch record.activity {
      case .started(let initial):
        recordedTimeline.append(.init(time: time, kind: .started(initial)))
      case .reduced(let event, let from, let to, let source):
        let reduction = Reduction(event: event, source: source, from: from, to: to, time: time)
        if record.isSent {
          sentReduction = reduction
          recordedTimeline.append(.init(time: time, kind: .sent(event, from: from, to: to)))
        } else {
          received.append(reduction)
          recordedTimeline.append(.init(time: time, kind: .received(event, source: source, from: from, to: to)))
        }
      case .effectQueued(let id):
        inFlight.append(EffectInFlight(id: id, startedAt: time, isQueued: true))
        recordedTimeline.append(.init(time: time, kind: .effectQueued(id)))
      case .effectStarted(let id):
        inFlight.removeAll { $0.id == id }
        inFlight.append(EffectInFlight(id: id, startedAt: time))
        recordedTimeline.append(.init(time: time, kind: .effectStarted(id)))
      case .effectCancelled(let id):
        inFlight.removeAll { $0.id == id }
        recordedTimeline.append(.init(time: time, kind: .effectCancelled(id)))
      case .effectFinished(let id):
        inFlight.removeAll { $0.id == id }
        recordedTimeline.append(.init(time: time, kind: .effectFinished(id)))
      case .effectFailed(let id, let error):
        inFlight.removeAll { $0.id == id }
        unmappedErrors.append(UnmappedError(effect: id, error: error, time: time))
        recordedTimeline.append(.init(time: time, kind: .effectFailed(id, error: "\(error)")))
      case .eventDiscarded(let event, let reason):
        recordedTimeline.append(.init(time: time, kind: .eventDiscarded(event, reason: reason)))
      case .stopped:
        recordedTimeline.append(.init(time: time, kind: .stopped))
      }
    }
  }

  /// How many of the latest timeline entries a failure shows.
  static var timelineLimit: Int { 100 }

  /// Reports a failure, with the timeline so far.
  func fail(_ kind: TestFailure.Kind, _ message: String, at location: CallSite) {
    absorb()
    reporter.report(
      TestFailure(
        kind: kind, message: message, timeline: recordedTimeline.render(last: Self.timelineLimit), location: location))
  }

  /// Whether the test may still drive the system; reports a misuse if not.
  func checkNotFinished(_ action: @autoclosure () -> String, at location: CallSite) -> Bool {
    guard isFinished else { return true }
    fail(.misuse, "\(action()) after \(stopReason): the system under test has stopped.", at: location)
    return false
  }

  /// Checks that `reduction` went from its state to the one `expectedChange`
  /// describes.
  func checkState(
    after verb: String,
    _ reduction: Reduction,
    expectedChange: ((inout State) throws -> Void)?,
    at location: CallSite
  ) {
    let event = EventFormat.describe(reduction.event)
    var expected = reduction.from
    if let expectedChange {
      do {
        try expectedChange(&expected)
      } catch {
        fail(.misuse, "The state assertion for \(verb) \(event) threw an error: \(error)", at: location)
        return
      }
    }
    guard expected != reduction.to else { return }
    switch exhaustivity {
    case .on:
      let headline =
        expectedChange == nil
        ? "\(verb.capitalizedFirst) \(event) changed the state, but the test asserted no change:"
        : "\(verb.capitalizedFirst) \(event) changed the state otherwise than asserted:"
      fail(
        .stateMismatch, headline + "\n\n" + StateDiff.describe(expected: expected, actual: reduction.to), at: location)
    case .off:
      guard let expectedChange else { return }
      // Only the fields the assertion sets are checked: set them on the
      // actual state; if that changes nothing, they hold.
      var named = reduction.to
      try? expectedChange(&named)
      guard named != reduction.to else { return }
      fail(
        .stateMismatch,
        "After \(verb) \(event), the state does not have the values the test asserted:\n\n"
          + StateDiff.describe(expected: named, actual: reduction.to),
        at: location)
    }
  }

  /// In exhaustive mode, reports the events received and the unmapped
  /// errors that the test did not assert; then forgets them.
  func reportUnasserted(before context: String, at location: CallSite) {
    defer {
      received.removeAll()
      unmappedErrors.removeAll()
    }
    guard exhaustivity == .on else { return }
    if !received.isEmpty {
      let count = received.count == 1 ? "1 event" : "\(received.count) events"
      fail(
        .eventsNotReceived,
        "The system received \(count) that the test did not assert with receive(_:) before \(context):\n"
          + received.map { "  • \(describe($0))" }.joined(separator: "\n"),
        at: location)
    }
    if !unmappedErrors.isEmpty {
      let count = unmappedErrors.count == 1 ? "1 effect" : "\(unmappedErrors.count) effects"
      fail(
        .unmappedError,
        "\(count) failed with an error that no catch mapped to an event, and the test did not assert it with "
          + "receiveUnmappedError() before \(context):\n"
          + unmappedErrors.map { "  • \($0.effect), at \(TimeFormat.short($0.time.offset)): \($0.error)" }
          .joined(separator: "\n"),
        at: location)
    }
  }

  /// A received event, its source and its time, on one line.
  func describe(_ reduction: Reduction) -> String {
    "\(EventFormat.describe(reduction.event)), from \(reduction.source), at \(TimeFormat.short(reduction.time.offset))"
  }

  /// The effects in flight, one per line, or a sentence saying there are none.
  var inFlightSummary: String {
    guard !inFlight.isEmpty else { return "No effect is in flight." }
    return "Effects in flight:\n" + inFlight.map { "  • \($0)" }.joined(separator: "\n")
  }
}

extension String {
  var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
