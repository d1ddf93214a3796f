import DequeModule

/// How an effectful runtime starts and cancels the effects of its feedback
/// under its ``ExecutionStrategy`` (G7), and says which effects' events are
/// still welcome (G4).
///
/// Effects are numbered from 1 in the order they are triggered. Cancelling
/// is a watermark: every effect numbered at most the feedback's watermark is
/// cancelled, so checking an event costs one comparison and an immediate
/// effect (`.send`) needs no bookkeeping at all. Only the owning thread
/// calls these. They are `final`, so that the feedbacks' handlers, built in
/// the user's module, call them specialized and without dynamic dispatch.
extension EffectfulRuntime {
  /// A new trigger: start `effect` as the strategy says.
  @inlinable
  final func trigger(_ effect: consuming Effect<Event>, because trigger: @autoclosure () -> String?) {
    if strategy == .cancelPrevious { cancelAll() }
    if effect.isNone { return }
    lastNumber += 1
    let number = lastNumber
    if loop._withUnsafeGuaranteedRef({ $0.isMonitored }), let trigger = trigger() { triggers[number] = trigger }
    if strategy == .queue, !running.isEmpty || !waiting.isEmpty {
      waiting.append(WaitingEffect(number: number, effect: effect))
      core.monitor?.report(.effectQueued(identify(number)))
    } else {
      start(effect, number: number)
    }
  }

  /// Cancels every running and waiting effect; their pending events are dropped.
  @inlinable
  final func cancelAll() {
    watermark.pointee = lastNumber
    guard !running.isEmpty || !waiting.isEmpty else { return }
    cancelRunningAndWaiting()
  }

  @usableFromInline
  final func cancelRunningAndWaiting() {
    let cancelled = running.keys.sorted() + waiting.map(\.number)
    for task in running.values { task.cancel() }
    running.removeAll()
    waiting.removeAll()
    for number in cancelled {
      core.monitor?.report(.effectCancelled(identify(number)))
      triggers[number] = nil
    }
  }

  @usableFromInline
  final func endEffect(_ number: UInt64, outcome: EffectOutcome) {
    guard running.removeValue(forKey: number) != nil else { return }
    switch outcome {
    case .finished, .cancelled:
      core.monitor?.report(.effectFinished(identify(number)))
    case .failed(let error):
      core.reportUnmappedError(error, of: identify(number))
    }
    triggers[number] = nil
    // Immediate effects end as they start: keep starting until one runs.
    while strategy == .queue, running.isEmpty, let next = waiting.popFirst() {
      start(next.effect, number: next.number)
    }
  }

  @usableFromInline
  final func identify(_ number: UInt64) -> EffectID {
    EffectID(feedback: id, number: number, trigger: triggers[number])
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
    running[token.number] = core.spawnEffect(token, options: options, body: body, catch: handler)
  }

  /// An effect that completes at once: its events are queued, nothing runs.
  @inlinable
  final func startImmediate(_ events: some Collection<Event>, token: EffectToken) {
    loop._withUnsafeGuaranteedRef { core in
      if core.isMonitored { reportImmediate(token.number) }
      for event in events { core.enqueueFromLoop(.event(event, token)) }
    }
  }

  @usableFromInline
  final func reportImmediate(_ number: UInt64) {
    let id = identify(number)
    core.monitor?.report(.effectStarted(id))
    core.monitor?.report(.effectFinished(id))
    triggers[number] = nil
  }
}

/// An effect of a ``ExecutionStrategy/queue`` feedback waiting its turn.
@usableFromInline
struct WaitingEffect<Event: Sendable> {
  @usableFromInline let number: UInt64
  @usableFromInline let effect: Effect<Event>

  @inlinable
  init(number: UInt64, effect: Effect<Event>) {
    self.number = number
    self.effect = effect
  }
}
