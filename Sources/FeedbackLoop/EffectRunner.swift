import DequeModule

/// Starts and cancels the effects of one feedback under its
/// ``ExecutionStrategy`` (G7), and says which effects' events are still
/// welcome (G4).
///
/// Effects are numbered from 1 in the order they are triggered. Cancelling
/// is a watermark: every effect numbered at most the feedback's watermark is
/// cancelled, so checking an event costs one comparison and an immediate
/// effect (`.send`) needs no bookkeeping at all. Owned by the draining thread.
@usableFromInline
final class EffectRunner<State: Sendable, Event: Sendable> {
  // Only the draining thread touches these: dynamic exclusivity checks would
  // cost more than the work they guard.
  @usableFromInline unowned(unsafe) let core: SystemCore<State, Event>
  /// The same, for the per-event path: calling through `core` retains and
  /// releases the system around each access.
  @usableFromInline let loop: Unmanaged<SystemCore<State, Event>>
  @usableFromInline let feedback: FeedbackID
  @usableFromInline let strategy: ExecutionStrategy
  @exclusivity(unchecked) @usableFromInline var lastNumber: UInt64 = 0
  /// This feedback's slot in `SystemCore.watermarks`.
  @usableFromInline let watermark: UnsafeMutablePointer<UInt64>
  @exclusivity(unchecked) @usableFromInline var running: [UInt64: Task<Void, Never>] = [:]
  @exclusivity(unchecked) @usableFromInline var waiting = Deque<WaitingEffect<Event>>()
  @exclusivity(unchecked) @usableFromInline var triggers: [UInt64: String] = [:]

  @usableFromInline
  init(core: SystemCore<State, Event>, feedback: FeedbackID, strategy: ExecutionStrategy) {
    self.core = core
    loop = Unmanaged.passUnretained(core)
    self.feedback = feedback
    self.strategy = strategy
    watermark = core.watermarks + feedback.index
  }

  /// A new trigger: start `effect` as the strategy says.
  @inlinable
  func trigger(_ effect: consuming Effect<Event>, because trigger: @autoclosure () -> String?) {
    if strategy == .cancelPrevious { cancelAll() }
    if effect.isNone { return }
    lastNumber += 1
    let number = lastNumber
    if loop._withUnsafeGuaranteedRef({ $0.isMonitored }), let trigger = trigger() { triggers[number] = trigger }
    if strategy == .queue, !running.isEmpty || !waiting.isEmpty {
      waiting.append(WaitingEffect(number: number, effect: effect))
      core.monitor?.receive(.effectQueued(effectID(number)))
    } else {
      start(effect, number: number)
    }
  }

  /// Cancels every running and waiting effect; their pending events are dropped.
  @inlinable
  func cancelAll() {
    watermark.pointee = lastNumber
    guard !running.isEmpty || !waiting.isEmpty else { return }
    cancelRunningAndWaiting()
  }

  @usableFromInline
  func cancelRunningAndWaiting() {
    let cancelled = running.keys.sorted() + waiting.map(\.number)
    for task in running.values { task.cancel() }
    running.removeAll()
    waiting.removeAll()
    for number in cancelled {
      core.monitor?.receive(.effectCancelled(effectID(number)))
      triggers[number] = nil
    }
  }

  @inlinable
  func isLive(_ number: UInt64) -> Bool { number > watermark.pointee }

  @usableFromInline
  func effectEnded(_ number: UInt64, outcome: EffectOutcome) {
    guard running.removeValue(forKey: number) != nil else { return }
    switch outcome {
    case .finished, .cancelled:
      core.monitor?.receive(.effectFinished(effectID(number)))
    case .failed(let error):
      core.reportUnmappedError(error, of: effectID(number))
    }
    triggers[number] = nil
    // Immediate effects end as they start: keep starting until one runs.
    while strategy == .queue, running.isEmpty, let next = waiting.popFirst() {
      start(next.effect, number: next.number)
    }
  }

  @usableFromInline
  func effectID(_ number: UInt64) -> EffectID {
    EffectID(feedback: feedback, number: number, trigger: triggers[number])
  }

  @inlinable
  func start(_ effect: consuming Effect<Event>, number: UInt64) {
    let token = EffectToken(feedback: Int32(feedback.index), number: number)
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
  func startTask(
    _ token: EffectToken,
    options: EffectTaskOptions,
    body: @escaping @Sendable (Send<Event>) async throws -> Event?,
    catch handler: (@Sendable (any Error) -> Event?)?
  ) {
    core.monitor?.receive(.effectStarted(effectID(token.number)))
    running[token.number] = core.spawnEffect(token, options: options, body: body, catch: handler)
  }

  /// An effect that completes at once: its events are queued, nothing runs.
  @inlinable
  func startImmediate(_ events: some Collection<Event>, token: EffectToken) {
    loop._withUnsafeGuaranteedRef { core in
      if core.isMonitored { reportImmediate(token.number) }
      for event in events { core.enqueueFromLoop(.event(event, token)) }
    }
  }

  @usableFromInline
  func reportImmediate(_ number: UInt64) {
    let id = effectID(number)
    core.monitor?.receive(.effectStarted(id))
    core.monitor?.receive(.effectFinished(id))
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
