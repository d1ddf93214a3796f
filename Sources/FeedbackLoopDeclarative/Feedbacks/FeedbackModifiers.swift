import FeedbackLoop

// The Feedbacks library's modifiers on one feedback and on a group of feedbacks. A
// modifier returns a modified copy, so they chain; on a group, it applies to
// every declared feedback in it (core feedbacks run as they are). Applied
// twice, a modifier that chooses (`effectExecutor(_:)`) keeps the first choice, the
// inner one; one that adds (`disable`, `onStateReceived`, `onEventEmitted`)
// keeps both, the inner one first (the article "Declaring a system", Step 5).

extension DeclaredFeedback {
  /// The same feedback, starting no side effect while `condition` returns
  /// `true` (or while any other `disable` condition does). Effects already
  /// running go on; the strategy still applies to the states received once
  /// enabled again.
  ///
  /// ```swift
  /// Feedback.on(LoadingState.self) { state in ... }
  ///   .disable { !network.isReachable }
  /// ```
  public func disable(_ condition: @escaping @Sendable () -> Bool) -> DeclaredFeedback {
    var copy = self
    copy.disabled.append(condition)
    return copy
  }

  /// The same feedback, calling `perform` with every state it receives
  /// (every state of the system, matched or not, disabled or not), on the
  /// loop's thread, before it decides whether to start its side effect.
  /// Applied twice, both are called, the inner one first.
  ///
  /// ```swift
  /// Feedback.on(LoadingState.self) { state in ... }
  ///   .onStateReceived { state in logger.debug("received \(state)") }
  /// ```
  public func onStateReceived(_ perform: @escaping @Sendable (State) -> Void) -> DeclaredFeedback {
    var copy = self
    copy.stateReceived.append(perform)
    return copy
  }

  /// The same feedback, calling `perform` with every event its side effects
  /// emit, as they emit it (before the system reduces it). Applied twice,
  /// both are called, the inner one first.
  ///
  /// ```swift
  /// Feedback.on(LoadingState.self) { state in ... }
  ///   .onEventEmitted { event in analytics.track(event) }
  /// ```
  public func onEventEmitted(_ perform: @escaping @Sendable (Event) -> Void) -> DeclaredFeedback {
    var copy = self
    copy.eventEmitted.append(perform)
    return copy
  }

  /// The same feedback, its asynchronous operations run on `executor` (the
  /// Feedbacks library's `.effectExecutor(scheduler)`): their nonisolated code runs there,
  /// through a task executor preference. Applied twice, the first call
  /// (the inner one) wins: a feedback's own executor is kept when its group
  /// names another.
  ///
  /// It moves the side effects written as operations
  /// (`Feedback.on(_:strategy:run:)`). A side effect that returns an
  /// `Effect` runs where the system runs its effects
  /// (`SystemEnvironment.effectExecutor`): the core does not let another
  /// layer wrap an effect it built.
  ///
  /// ```swift
  /// Feedback.on(DecodingState.self) { state, send in
  ///   send(DecodedEvent(image: decode(state.data)))
  /// }
  /// .effectExecutor(decodingExecutor)
  /// ```
  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  public func effectExecutor(_ executor: any TaskExecutor) -> DeclaredFeedback {
    var copy = self
    if copy.executor == nil { copy.executor = executor }
    return copy
  }
}

extension Feedbacks {
  /// The same feedbacks, none starting a side effect while `condition`
  /// returns `true` (see ``DeclaredFeedback/disable(_:)``).
  ///
  /// ```swift
  /// Feedbacks { ... }.disable { isInBackground() }
  /// ```
  public func disable(_ condition: @escaping @Sendable () -> Bool) -> Feedbacks {
    map { $0.disable(condition) }
  }

  /// The same feedbacks, each calling `perform` with every state it
  /// receives (see ``DeclaredFeedback/onStateReceived(_:)``).
  ///
  /// ```swift
  /// Feedbacks { ... }.onStateReceived { state in print(state) }
  /// ```
  public func onStateReceived(_ perform: @escaping @Sendable (State) -> Void) -> Feedbacks {
    map { $0.onStateReceived(perform) }
  }

  /// The same feedbacks, each calling `perform` with every event it emits
  /// (see ``DeclaredFeedback/onEventEmitted(_:)``).
  ///
  /// ```swift
  /// Feedbacks { ... }.onEventEmitted { event in print(event) }
  /// ```
  public func onEventEmitted(_ perform: @escaping @Sendable (Event) -> Void) -> Feedbacks {
    map { $0.onEventEmitted(perform) }
  }

  /// The same feedbacks, their operations run on `executor`, unless a
  /// feedback chose its own (see ``DeclaredFeedback/effectExecutor(_:)``).
  ///
  /// ```swift
  /// Feedbacks { ... }.effectExecutor(backgroundExecutor)
  /// ```
  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  public func effectExecutor(_ executor: any TaskExecutor) -> Feedbacks {
    map { $0.effectExecutor(executor) }
  }

  private func map(_ transform: (DeclaredFeedback<State, Event>) -> DeclaredFeedback<State, Event>) -> Feedbacks {
    var copy = self
    copy.feedbacks = feedbacks.map(transform)
    return copy
  }
}
