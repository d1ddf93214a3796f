extension Feedback {
  /// The general form (RxFeedback's `(Observable<State>) -> Observable<Event>`):
  /// the stream of states in, a stream of events out.
  ///
  /// `events` is called once, when the system starts, with a sequence of
  /// every state from the initial one on, in order (buffered without bound,
  /// so none is missed; G3). Its events are sent to the system until it stops.
  /// Prefer the query forms for effects that follow the state: they react
  /// before the next event is reduced.
  ///
  /// ```swift
  /// Feedback<Player.State, Player.Event>.events { states in
  ///   states.map(\.isPlaying).removingDuplicates().map(Player.Event.playingChanged)
  /// }
  /// ```
  public static func events<Events: AsyncSequence & Sendable>(
    name: String? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    _ transform: @escaping @Sendable (AsyncStream<State>) -> Events
  ) -> Feedback where Events.Element == Event {
    Feedback(name: name, kind: "events", fileID: fileID, line: line) { id, core in
      StreamRuntime(id: id, core: core) { states, send in
        for try await event in transform(states) { send(event) }
      }
    }
  }
}
