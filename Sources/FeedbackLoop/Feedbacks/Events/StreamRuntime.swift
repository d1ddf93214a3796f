/// Runs a feedback of the general form: a task that reads every state from
/// an `AsyncStream` and sends events.
final class StreamRuntime<State: Sendable, Event: Sendable>: FeedbackRuntime<State, Event> {
  private let body: @Sendable (AsyncStream<State>, Send<Event>) async throws -> Void
  private var continuation: AsyncStream<State>.Continuation?
  private var task: Task<Void, Never>?

  init(
    id: FeedbackID,
    core: SystemCore<State, Event>,
    body: @escaping @Sendable (AsyncStream<State>, Send<Event>) async throws -> Void
  ) {
    self.body = body
    super.init(id: id, core: core)
    // `unowned(unsafe) self`: the system keeps this handler and the runtime until it stops; none runs after.
    onEachState { [unowned(unsafe) self] state in self.continuation?.yield(state) }
  }

  override func start() {
    let (states, continuation) = AsyncStream<State>.makeStream(bufferingPolicy: .unbounded)
    self.continuation = continuation
    task = core.spawnFeedbackTask(id) { [body] send in try await body(states, send) }
  }

  override func stop() {
    continuation?.finish()
    task?.cancel()
  }
}

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
