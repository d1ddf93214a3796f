/// `deriving`: a task reads the stream of states through the user's
/// transform; each derived value is handed to the loop, which triggers the
/// effect for it under the feedback's strategy.
final class DerivingRuntime<State: Sendable, Event: Sendable, Derived: Sendable>: EffectfulRuntime<State, Event> {
  private let derive: @Sendable (AsyncStream<State>, @escaping @Sendable (Derived) -> Void) async throws -> Void
  private let effects: @Sendable (Derived) -> Effect<Event>
  private var continuation: AsyncStream<State>.Continuation?
  private var task: Task<Void, Never>?

  init(
    id: FeedbackID, core: SystemCore<State, Event>, strategy: ExecutionStrategy,
    derive: @escaping @Sendable (AsyncStream<State>, @escaping @Sendable (Derived) -> Void) async throws -> Void,
    effects: @escaping @Sendable (Derived) -> Effect<Event>
  ) {
    self.derive = derive
    self.effects = effects
    super.init(id: id, core: core, strategy: strategy)
    // `unowned(unsafe) self`: the system keeps this handler and the runtime until it stops; none runs after.
    onEachState { [unowned(unsafe) self] state, _ in self.continuation?.yield(state) }
  }

  override func start() {
    let (states, continuation) = AsyncStream<State>.makeStream(bufferingPolicy: .unbounded)
    self.continuation = continuation
    let feedback = Int32(id.index)
    task = core.spawnFeedbackTask(id) { [core, derive] _ in
      try await derive(states) { value in core.submitControl(feedback: feedback, value: value) }
    }
  }

  override func onControl(_ value: any Sendable) {
    guard let value = value as? Derived else { return }
    trigger(effects(value), because: "\(value)")
  }

  override func stop() {
    continuation?.finish()
    task?.cancel()
    super.stop()
  }
}
