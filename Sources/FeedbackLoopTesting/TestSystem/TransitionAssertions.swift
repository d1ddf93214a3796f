/// One-line checks of a reducer's transitions, as the Feedbacks library's
/// `FeedbacksTest` has them: from this state, on this event, the new state
/// is that one.
///
/// They test the reducer alone, as a pure function, with nothing running;
/// a ``TestSystem`` tests it with its feedbacks. Any reducer will do, one
/// that returns the new state or one that changes it in place.
///
/// ```swift
/// let transitions = TransitionAssertions(reduceReturning: Volume.reduce)
/// transitions.assertThat(from: Volume.State(value: 10), on: .increase, newStateIs: Volume.State(value: 11))
/// transitions.assertThatStateIsUnchanged(from: Volume.State(value: 10), on: .reset(to: 10))
/// ```
public struct TransitionAssertions<State: Equatable, Event> {
  private let reduce: (inout State, Event) -> Void
  private let reporter: TestFailureReporter

  /// Checks the transitions of a reducer that returns the new state.
  ///
  /// ```swift
  /// let transitions = TransitionAssertions(reduceReturning: Volume.reduce)
  /// ```
  public init(reduceReturning reduce: @escaping (State, Event) -> State, reporter: TestFailureReporter = .automatic) {
    self.reduce = { state, event in state = reduce(state, event) }
    self.reporter = reporter
  }

  /// Checks the transitions of a reducer that changes the state in place,
  /// the library's reducer.
  ///
  /// ```swift
  /// let transitions = TransitionAssertions(HUD.reduce)
  /// ```
  public init(_ reduce: @escaping (inout State, Event) -> Void, reporter: TestFailureReporter = .automatic) {
    self.reduce = reduce
    self.reporter = reporter
  }

  /// Checks that reducing `event` from `state` gives `expected`.
  ///
  /// ```swift
  /// transitions.assertThat(from: .showing(secondsLeft: 1), on: .secondsLeftChanged(0), newStateIs: .skipping)
  /// ```
  public func assertThat(
    from state: State,
    on event: Event,
    newStateIs expected: State,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    check(
      from: state, on: event, expected: expected, failure: "the new state is not the one expected",
      at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Checks that reducing `event` from `state` leaves it unchanged.
  ///
  /// ```swift
  /// transitions.assertThatStateIsUnchanged(from: .hidden, on: .secondsLeftChanged(3))
  /// ```
  public func assertThatStateIsUnchanged(
    from state: State,
    on event: Event,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    check(
      from: state, on: event, expected: state, failure: "the state changed, and it was expected not to",
      at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Reduces `event` from `state` and reports `failure`, with a diff, when
  /// the result is not `expected`.
  private func check(from state: State, on event: Event, expected: State, failure: String, at location: CallSite) {
    var actual = state
    reduce(&actual, event)
    guard actual != expected else { return }
    reporter.report(
      TestFailure(
        kind: .transition,
        message: "From \(EventFormat.describe(state)), on \(EventFormat.describe(event)), \(failure):\n\n"
          + StateDiff.describe(expected: expected, actual: actual),
        location: location))
  }
}
