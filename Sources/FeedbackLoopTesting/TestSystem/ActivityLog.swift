import FeedbackLoop

/// What a ``TestSystem``'s monitor saw, waiting to be read by the test.
///
/// The monitor runs on the thread that drains the system, which under a
/// ``ManualTaskExecutor`` is the test's own; the log is locked all the same,
/// so that work that escaped to another executor cannot corrupt it.
final class ActivityLog<State: Sendable, Event: Sendable>: @unchecked Sendable {
  // Sendable: every mutable field is guarded by `lock`.

  struct Record: Sendable {
    let activity: SystemActivity<State, Event>
    let time: TestClock.Instant
    /// Whether this reduction is of the event the test was sending.
    let isSent: Bool
  }

  private let lock = Lock()
  private var records: [Record] = []
  private var awaitingSentEvent = false

  /// A monitor that stamps each activity with the clock's time.
  func monitor(clock: TestClock) -> SystemMonitor<State, Event> {
    SystemMonitor { [self] activity in
      let time = clock.now
      lock.withLock {
        var isSent = false
        if awaitingSentEvent, case .reduced(_, _, _, .external) = activity {
          awaitingSentEvent = false
          isSent = true
        }
        records.append(Record(activity: activity, time: time, isSent: isSent))
      }
    }
  }

  /// The next reduction of an external event is the test's own send.
  func expectSentEvent() {
    lock.withLock { awaitingSentEvent = true }
  }

  /// Stops waiting for the event being sent (it was not reduced).
  func abandonSentEvent() {
    lock.withLock { awaitingSentEvent = false }
  }

  /// Takes every record so far.
  func take() -> [Record] {
    lock.withLock {
      defer { records.removeAll() }
      return records
    }
  }
}
