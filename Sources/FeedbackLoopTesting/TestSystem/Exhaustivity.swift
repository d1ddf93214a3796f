/// How much a ``TestSystem`` insists on: everything that happened, or only
/// what the test names.
///
/// ```swift
/// let app = TestSystem(initial: App.State(), reduceReturning: App.reduce, feedbacks: App.feedbacks)
/// app.exhaustivity = .off  // an integration test: check the milestones only
/// app.send(.login(user)) { $0.screen = .home }
/// app.receive(.feedLoaded(feed))
/// ```
///
/// Closed for good: no version adds a case.
public enum Exhaustivity: Sendable, Hashable {
  /// Everything must be asserted (the default): every state change, every
  /// event that an effect produced, every effect still running when the
  /// test ends, every error that no `catch` mapped to an event.
  case on
  /// Only what the test names is checked. A state assertion checks the
  /// fields its closure sets (write them as assignments, `$0.x = value`,
  /// not as changes, `$0.x += 1`); `receive` skips the events before the
  /// one it names; events not received and effects still running at the end
  /// are let go.
  case off
}
