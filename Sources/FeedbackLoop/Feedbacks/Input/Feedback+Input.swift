extension Feedback {
  /// Binds an external source of events for the system's lifetime (G8).
  ///
  /// ```swift
  /// let taps = AsyncStream<Void>.makeStream()
  /// Feedback<HUD.State, HUD.Event>.input(taps.stream.map { .tap })
  /// ```
  public static func input<Events: AsyncSequence & Sendable>(
    _ events: Events,
    name: String? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> Feedback where Events.Element == Event {
    Feedback(name: name, kind: "input", fileID: fileID, line: line) { id, core in
      InputSequenceRuntime(id: id, core: core) { send in
        for try await event in events { send(event) }
      }
    }
  }

  /// Binds an ``Input``, a handle that imperative code (a button, a
  /// notification, a delegate) sends events through (G8).
  ///
  /// ```swift
  /// let buttons = Input<Counter.Event>()
  /// let system = System(initial: 0, reduceReturning: Counter.reduce, feedbacks: [.input(buttons)])
  /// buttons.send(.increment)
  /// ```
  @inlinable
  public static func input(
    _ input: Input<Event>,
    name: String? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> Feedback {
    Feedback(name: name, kind: "input", fileID: fileID, line: line) { id, core in
      // Built here, in the user's module, so that an input's events take the
      // specialized path into the loop.
      let target = InputTarget<Event> { event, callerIsMainActor in
        core.submit(event, from: .external, callerIsMainActor: callerIsMainActor)
      }
      return InputHandleRuntime(id: id, core: core, input: input, target: target)
    }
  }
}
