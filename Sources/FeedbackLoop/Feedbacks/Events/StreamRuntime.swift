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
    onEachState { [unowned(unsafe) self] state, _ in self.continuation?.yield(state) }
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
