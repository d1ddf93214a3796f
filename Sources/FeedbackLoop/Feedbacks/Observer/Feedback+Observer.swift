extension Feedback {
  /// A synchronous observer of the states, made anew for each system that
  /// runs the feedback: the function `makeObserver` returns is called on
  /// the loop's thread with the initial state and with every new state, in
  /// the order of the feedbacks, before the next event is reduced. It starts
  /// no effect and sends nothing.
  ///
  /// It is what a renderer needs: its own memory per system (the model it
  /// rendered last), and no closure of the library's between the loop and
  /// its code. A query feedback
  /// (``query(_:strategy:name:fileID:line:effects:)``) keeps the last
  /// query for you and can answer with events; the loop calls this one's
  /// observer directly, so an unchanged model costs the comparison the
  /// observer makes (FeedbackLoopCycle's skipped render).
  /// Keep the observer short: the loop waits for it.
  ///
  /// ```swift
  /// Feedback<Counter.State, Counter.Event>.observer {
  ///   var shown: Int?
  ///   return { state in
  ///     guard state.count != shown else { return }
  ///     shown = state.count
  ///     label.text = "\(state.count)"
  ///   }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - name: the name monitors show; by default `observer@File.swift:line`.
  ///   - fileID: where the feedback is made, for its default name.
  ///   - line: where the feedback is made, for its default name.
  ///   - makeObserver: called once per system, when the system starts, on
  ///     the thread that starts it; returns the function called with each
  ///     state.
  @inlinable
  public static func observer(
    name: String? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    _ makeObserver: @escaping @Sendable () -> (State) -> Void
  ) -> Feedback {
    Feedback(name: name, kind: "observer", fileID: fileID, line: line) { id, core in
      let runtime = FeedbackRuntime(id: id, core: core)
      // Built here, in the caller's module, so that the handler around the
      // observer is specialized; the handler is also given where the state
      // is stored (`StateHandler`), which an observer has no use for.
      let observer = makeObserver()
      runtime.onEachState { state, _ in observer(state) }
      return runtime
    }
  }
}
