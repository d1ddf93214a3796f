import CFeedbackLoopShims

/// Process-wide counts of what FeedbackLoop has alive, for leak tests (as
/// RxSwift's `Resources.total`).
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
