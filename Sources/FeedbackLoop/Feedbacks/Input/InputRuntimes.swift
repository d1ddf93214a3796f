/// Runs an input bound to an asynchronous sequence.
final class InputSequenceRuntime<State: Sendable, Event: Sendable>: FeedbackRuntime<State, Event> {
  private let body: @Sendable (Send<Event>) async throws -> Void
  private var task: Task<Void, Never>?

  init(id: FeedbackID, core: SystemCore<State, Event>, body: @escaping @Sendable (Send<Event>) async throws -> Void) {
    self.body = body
    super.init(id: id, core: core)
  }

  override func start() {
    task = core.spawnFeedbackTask(id, body)
  }

  override func stop() {
    task?.cancel()
  }
}

/// Runs an input bound to an ``Input`` handle.
@usableFromInline
final class InputHandleRuntime<State: Sendable, Event: Sendable>: FeedbackRuntime<State, Event> {
  private let input: Input<Event>
  private let target: InputTarget<Event>

  @usableFromInline
  init(id: FeedbackID, core: SystemCore<State, Event>, input: Input<Event>, target: InputTarget<Event>) {
    self.input = input
    self.target = target
    super.init(id: id, core: core)
  }

  override func start() {
    if input.bind(to: target, flushingInto: core) {
      // Documented (``Input``): the later binding wins. Said in the log, as
      // an input moved from a system that still runs is easy to miss.
      core.environment.logger.notice(
        "an Input bound to another system before is bound to this one now; it sends here only",
        metadata: ["feedback": "\(id)"])
    }
  }
}
