import FeedbackLoop

extension On {
  /// The same transition, skipped while `condition` returns `true`: the
  /// next candidate by the rule of ``Transitions`` runs instead, if any.
  /// Applied twice, both conditions count: the transition is skipped while
  /// either returns `true`.
  ///
  /// `condition` is read inside the reducer, for each event the transition
  /// matches: keep it quick, and know that a condition outside the state
  /// makes the reducer depend on more than its state and event.
  ///
  /// ```swift
  /// On(IncreaseEvent.self, transitionTo: VolumeState(value: state.value + 1))
  ///   .disable { settings.isVolumeLocked }
  /// ```
  public func disable(_ condition: @escaping @Sendable () -> Bool) -> On {
    var copy = self
    copy.disabled.append(condition)
    return copy
  }
}

extension From {
  /// The same block, every transition of it skipped while `condition`
  /// returns `true` (or while any other `disable` condition does).
  ///
  /// ```swift
  /// From(LoadedState.self) { state in ... }.disable { isOffline() }
  /// ```
  public func disable(_ condition: @escaping @Sendable () -> Bool) -> From {
    var copy = self
    copy.disabled.append(condition)
    return copy
  }
}

extension Transitions {
  /// The same transitions, all skipped while `condition` returns `true`
  /// (or while any other `disable` condition does): events are then
  /// unmatched.
  ///
  /// ```swift
  /// Transitions { ... }.disable { maintenance.isOn }
  /// ```
  public func disable(_ condition: @escaping @Sendable () -> Bool) -> Transitions {
    var copy = self
    copy.blocks = blocks.map { $0.disable(condition) }
    return copy
  }

  /// The same transitions, reduced in `isolation`: the Feedbacks library's
  /// `Transitions { ... }.effectExecutor(queue)` in Swift concurrency terms.
  ///
  /// The reducer runs where its system runs (G10), so this chooses the
  /// system's isolation, unless the system is given one explicitly.
  /// Applied twice, the first call (the inner one) wins, as every modifier
  /// of this module does.
  ///
  /// ```swift
  /// Transitions { ... }.isolation(.mainActor)
  /// ```
  public func isolation(_ isolation: SystemIsolation) -> Transitions {
    var copy = self
    if copy.isolation == nil { copy.isolation = isolation }
    return copy
  }
}
