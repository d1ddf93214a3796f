import FeedbackLoop

extension Recorder {
  /// A recorder for a child system of the one this recorder records: its
  /// system id is this one's followed by `/` and `id`, and every message of
  /// its inspection stream names this system as the parent.
  ///
  /// The core does not tell a monitor that a system runs as another's
  /// child, so the link is made where the child is made: in the `make`
  /// closure of `Feedback.childSystems`, which knows both.
  ///
  /// ```swift
  /// let recorder = Recorder<Downloads.State, Downloads.Event>(system: "downloads")
  /// let children = ChildSystems<Int, Download.State, Download.Event>()
  /// let feedback = Feedback<Downloads.State, Downloads.Event>.childSystems(
  ///   children, for: \.urls,
  ///   make: { id, _ in
  ///     let childRecorder: Recorder<Download.State, Download.Event> = recorder.childRecorder(id: "\(id)")
  ///     return System(initial: Download.State(), reduce: Download.reduce, monitor: childRecorder.monitor)
  ///   },
  ///   outcome: { id, state in state.done ? .finished(id) : nil })
  /// // The child's messages: "system": "downloads/1", "parent": "downloads".
  /// ```
  ///
  /// - Parameters:
  ///   - id: the child's id among its siblings.
  ///   - capacity: how many moments the child's ring holds.
  ///   - clock: the child's clock, to stamp its moments; `nil` for none.
  public func childRecorder<ChildState: Sendable, ChildEvent: Sendable>(
    id: String, capacity: Int = 1_000, clock: (any Clock<Duration>)? = nil
  ) -> Recorder<ChildState, ChildEvent> {
    Recorder<ChildState, ChildEvent>(
      capacity: capacity, system: stream.system + "/" + id, parent: stream.system, clock: clock)
  }
}
