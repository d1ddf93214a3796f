/// How an effectful runtime starts and cancels the effects of its feedback
/// under its ``ExecutionStrategy`` (G7), and says which effects' events are
/// still welcome (G4).
///
/// The bookkeeping is the runtime's ``EffectBook`` (numbering, running and
/// waiting effects, the watermark); these functions do what its
/// transitions say: start and cancel tasks, report to the monitor, publish
/// the watermark for the loop. Only the owning thread calls them. They are
/// `final`, so that the feedbacks' handlers, built in the user's module,
/// call them specialized and without dynamic dispatch.
extension EffectfulRuntime {
  /// A new trigger: start `effect` as the strategy says.
  @inlinable
  final func trigger(_ effect: consuming Effect<Event>, because trigger: @autoclosure () -> String?) {
    if strategy == .cancelPrevious { cancelAll() }
    if effect.isNone { return }
    switch book.admit(queueing: strategy == .queue) {
    case .start(let number):
      // `loop`, not `core`: an access through `core` retains and releases
      // it; the runtime's handler runs only while the system lives.
      if loop._withUnsafeGuaranteedRef({ $0.describesTriggers }), let trigger = trigger() {
        remember(trigger, of: number)
      }
      start(effect, number: number)
    case .wait(let number):
      if loop._withUnsafeGuaranteedRef({ $0.describesTriggers }), let trigger = trigger() {
        remember(trigger, of: number)
      }
      book.wait(number, effect: WaitingEffect(effect, sendContext: core.hooks?.currentContext))
      core.monitor?.report(.effectQueued(identify(number)))
    }
  }

  /// Cancels every running and waiting effect; their pending events are
  /// dropped: the book raises its watermark, published here for the loop.
  @inlinable
  final func cancelAll() {
    let before = book.cancelledThrough
    let some = book.cancelAll()
    // The slot holds what the book held: written only when that moved (no
    // effect started since the last cancellation leaves it), which saves
    // finding the slot on most query changes (W3).
    if book.cancelledThrough != before { watermark.pointee = book.cancelledThrough }
    guard some else { return }
    cancelRunningAndWaiting()
  }

  @usableFromInline
  final func cancelRunningAndWaiting() {
    let cancelled = book.removeRunningAndWaiting()
    for (_, task) in cancelled { task?.cancel() }
    for (number, _) in cancelled {
      core.monitor?.report(.effectCancelled(identify(number)))
      forgetTrigger(of: number)
    }
  }

  @usableFromInline
  final func endEffect(_ number: UInt64, outcome: EffectOutcome) {
    guard book.finish(number) else { return }
    switch outcome {
    case .finished, .cancelled:
      core.monitor?.report(.effectFinished(identify(number)))
    case .failed(let error):
      core.reportUnmappedError(error, of: identify(number))
    }
    forgetTrigger(of: number)
    // Checked first, not left to `nextWaiting`: this function is compiled
    // unspecialized, and a waiting effect's optional, whose size depends on
    // `Event`, costs a metadata look-up per call (the task-effects benchmark,
    // measured).
    guard strategy == .queue else { return }
    // Immediate effects end as they start: keep starting until one runs.
    while let next = book.nextWaiting(queueing: true) {
      // Unchecked: this runtime's book holds only its own `WaitingEffect`s.
      let waiting = unsafeDowncast(next.effect, to: WaitingEffect<Event>.self)
      core.withSendContext(waiting.sendContext) { start(waiting.effect, number: next.number) }
    }
  }

  @usableFromInline
  final func identify(_ number: UInt64) -> EffectID {
    EffectID(feedback: id, number: number, trigger: triggerDescription(of: number))
  }

  /// Keeps what started effect `number`, for the monitor (in its box:
  /// `SystemMonitorBox.triggers`).
  @usableFromInline
  final func remember(_ trigger: String, of number: UInt64) {
    let token = EffectToken(feedback: Int32(id.index), number: number)
    core.monitorBox?._withUnsafeGuaranteedRef { $0.triggers[token] = trigger }
  }

  @usableFromInline
  final func forgetTrigger(of number: UInt64) {
    guard core.describesTriggers else { return }
    let token = EffectToken(feedback: Int32(id.index), number: number)
    core.monitorBox?._withUnsafeGuaranteedRef { _ = $0.triggers.removeValue(forKey: token) }
  }

  @usableFromInline
  final func triggerDescription(of number: UInt64) -> String? {
    guard core.describesTriggers else { return nil }
    let token = EffectToken(feedback: Int32(id.index), number: number)
    return core.monitorBox?._withUnsafeGuaranteedRef { $0.triggers[token] }
  }

  @inlinable
  final func start(_ effect: consuming Effect<Event>, number: UInt64) {
    let token = EffectToken(feedback: Int32(id.index), number: number)
    // Consumed, not copied: copying and destroying the operation cost a
    // quarter of a round trip through a feedback.
    let operation = effect.operation
    switch consume operation {
    case .none:
      return
    case .send(let event):
      startImmediate(CollectionOfOne(event), token: token)
    case .sendAll(let events):
      startImmediate(events, token: token)
    case .run(let task):
      startTask(token, options: task.options, body: task.body, catch: task.catch)
    }
  }

  @inlinable
  final func startTask(
    _ token: EffectToken,
    options: EffectTaskOptions,
    body: @escaping @Sendable (Send<Event>) async throws -> Event?,
    catch handler: (@Sendable (any Error) -> Event?)?
  ) {
    core.monitor?.report(.effectStarted(identify(token.number)))
    book.started(token.number, handle: core.spawnEffect(token, options: options, body: body, catch: handler))
  }

  /// An effect that completes at once: its events are queued, nothing runs.
  @inlinable
  final func startImmediate(_ events: some Collection<Event>, token: EffectToken) {
    // Unretained: the system outlives its runtimes (see `core`).
    loop._withUnsafeGuaranteedRef { core in
      if core.isMonitored { reportImmediate(token.number) }
      for event in events { core.enqueueEventFromLoop(event, token) }
    }
  }

  @usableFromInline
  final func reportImmediate(_ number: UInt64) {
    let id = identify(number)
    core.monitor?.report(.effectStarted(id))
    core.monitor?.report(.effectFinished(id))
    forgetTrigger(of: number)
  }
}

/// An effect of a ``ExecutionStrategy/queue`` feedback waiting its turn,
/// boxed (see `EffectfulRuntime.book`): made only when an effect must wait.
@usableFromInline
final class WaitingEffect<Event: Sendable> {
  @usableFromInline let effect: Effect<Event>
  /// The context of the event whose state asked for the effect (see
  /// ``MonitorHooks``): its span continues that trace when it starts.
  @usableFromInline let sendContext: (any Sendable)?

  @inlinable
  init(_ effect: consuming Effect<Event>, sendContext: (any Sendable)?) {
    self.effect = effect
    self.sendContext = sendContext
  }
}
