import FeedbackLoop
import FeedbackLoopDurable

extension Tally {
  /// The tally's one effect: when a milestone is reached and not yet
  /// announced, `announce` is called with it and the effect's idempotency
  /// key, then the milestone is recorded.
  ///
  /// On a cluster the effect starts only once the events that reached the
  /// milestone are committed; a node that takes the id over after a crash
  /// finds the milestone still unannounced in the restored state and
  /// announces it again, with the same key: the effect is at least once, so
  /// whatever `announce` calls should drop a key it has seen.
  ///
  /// ```swift
  /// let feedbacks = Tally.feedbacks { milestone, key in
  ///   logger.info("milestone \(milestone)", metadata: ["key": "\(key ?? "-")"])
  /// }
  /// ```
  public static func feedbacks(
    announce: @escaping @Sendable (_ milestone: Int, _ key: String?) async -> Void
  ) -> [LiftableFeedback<Tally, TallyEvent>] {
    [
      .query(\.milestoneToAnnounce, name: "announce") { milestone in
        .task {
          await announce(milestone, DurableEffect.key?.description)
          return .announced(milestone)
        }
      }
    ]
  }
}
