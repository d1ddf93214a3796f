import Logging

extension SystemMonitor {
  /// A monitor that logs every event and state change through swift-log, and
  /// the life of every effect: the RxFeedback article's logging higher-order reducer, as one
  /// call.
  ///
  /// Reductions and effects are logged at `level`; failed effects at `.error`.
  ///
  /// ```swift
  /// let system = System(
  ///   initial: SkipIntro.State.hidden,
  ///   reduceReturning: SkipIntro.reduce,
  ///   feedbacks: SkipIntro.feedbacks(player: player),
  ///   monitor: .logging(to: Logger(label: "skip-intro"))
  /// )
  /// // [skip-intro] event hasIntroStarted(true): hidden -> showing(secondsLeft: 10)
  /// ```
  public static func logging(to logger: Logger, level: Logger.Level = .debug) -> SystemMonitor {
    SystemMonitor { activity in
      switch activity {
      case .started(let initial):
        logger.log(level: level, "started in \(initial)")
      case .reduced(let event, let from, let to, let source):
        logger.log(
          level: level, "event \(event): \(from) -> \(to)",
          metadata: ["source": "\(source)"])
      case .effectQueued(let id):
        logger.log(level: level, "queued \(id)")
      case .effectStarted(let id):
        logger.log(level: level, "started \(id)")
      case .effectCancelled(let id):
        logger.log(level: level, "cancelled \(id)")
      case .effectFinished(let id):
        logger.log(level: level, "finished \(id)")
      case .effectFailed(let id, let error):
        logger.error("\(id) failed: \(error)")
      case .eventDiscarded(let event, let reason):
        logger.log(level: level, "discarded \(event): \(reason)")
      case .stopped:
        logger.log(level: level, "stopped")
      }
    }
  }
}
