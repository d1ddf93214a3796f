import CFeedbackLoopShims

/// Process-wide counts of what FeedbackLoop has alive, for leak tests (as
/// RxSwift's `Resources.total`).
///
/// It is public, not behind an `@_spi(Diagnostics)`, on purpose: leak tests
/// belong to apps as much as to this package (a screen's tests check that
/// closing it leaves no effect running), an app should not need an
/// underscored attribute to write them, and moving it behind an SPI would
/// remove it from code that uses it today. It costs nothing per event: one
/// relaxed atomic add when a task starts and one when it ends.
///
/// ```swift
/// let before = FeedbackLoopResources.runningTaskCount
/// do { let system = makeSystem(); system.send(.start) }  // released here
/// // ... once cancelled tasks have ended:
/// #expect(FeedbackLoopResources.runningTaskCount == before)
/// ```
public enum FeedbackLoopResources {
  /// The number of effect and input tasks, of every system, that have not ended.
  public static var runningTaskCount: Int { Int(fl_live_tasks_load()) }
}
