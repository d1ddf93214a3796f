extension Feedback {
  /// A feedback built anew for each system that runs it, around an object
  /// that the system's feedbacks built with the same `key` share: the
  /// layers above the runtime keep per-system bookkeeping in it (a
  /// statechart's delay queue), which two systems running one feedbacks
  /// array must not share.
  ///
  /// `makeShared` is called once per system and key, while the system is
  /// made (on the thread that makes it), and `feedback` for each feedback
  /// with the system's object. The object lives as long as the runtimes
  /// that keep it. The feedback `feedback` returns is named `name`.
  ///
  /// ```swift
  /// let key = QueueKey()
  /// let feedbacks = (0..<2).map { index in
  ///   Feedback(name: "delay\(index)", sharingPerSystem: key, Queue.init) { queue in
  ///     Feedback.query(\.armed) { _ in .run { send in try await queue.wait(send) } }
  ///   }
  /// }
  /// ```
  package init<Shared: AnyObject & Sendable>(
    name: String,
    sharingPerSystem key: some AnyObject & Sendable,
    _ makeShared: @escaping @Sendable () -> Shared,
    feedback: @escaping @Sendable (Shared) -> Feedback
  ) {
    self.init(name: name, kind: "perSystem", fileID: #fileID, line: #line) { id, core in
      // The closure keeps `key` alive, so its identity names no other key.
      let handlers = SharedHandlers.current()
      let shared: Shared
      if let existing = handlers.byObject[ObjectIdentifier(key)] as? Shared {
        shared = existing
      } else {
        shared = makeShared()
        handlers.byObject[ObjectIdentifier(key)] = shared
      }
      return feedback(shared).makeRuntime(id, core)
    }
  }
}
