import DequeModule

/// Starts and cancels the effects of one feedback under its
/// ``ExecutionStrategy`` (G7), and says which effects' events are still
/// welcome (G4).
///
/// Effects are numbered from 1 in the order they are triggered. Cancelling
/// is a watermark: every effect numbered at most `cancelledThrough` is
/// cancelled, so checking an event costs one comparison and an immediate
/// effect (`.send`) needs no bookkeeping at all. Owned by the draining thread.
final class EffectRunner<State: Sendable, Event: Sendable> {
  private unowned(unsafe) let core: SystemCore<State, Event>
  private let feedback: FeedbackID
  private let strategy: ExecutionStrategy
  private var lastNumber: UInt64 = 0
  private var cancelledThrough: UInt64 = 0
  private var running: [UInt64: Task<Void, Never>] = [:]
  private var waiting = Deque<(number: UInt64, effect: Effect<Event>)>()
  private var triggers: [UInt64: String] = [:]

  init(core: SystemCore<State, Event>, feedback: FeedbackID, strategy: ExecutionStrategy) {
    self.core = core
    self.feedback = feedback
    self.strategy = strategy
  }

  /// A new trigger: start `effect` as the strategy says.
  func trigger(_ effect: Effect<Event>, because trigger: @autoclosure () -> String?) {
    if strategy == .cancelPrevious { cancelAll() }
    if case .none = effect.operation { return }
    lastNumber += 1
    let number = lastNumber
    if core.monitor != nil, let trigger = trigger() { triggers[number] = trigger }
    if strategy == .queue, !running.isEmpty || !waiting.isEmpty {
      waiting.append((number, effect))
      core.monitor?.receive(.effectQueued(effectID(number)))
    } else {
      start(effect, number: number)
    }
  }

  /// Cancels every running and waiting effect; their pending events are dropped.
  func cancelAll() {
    cancelledThrough = lastNumber
    guard !running.isEmpty || !waiting.isEmpty else { return }
    let cancelled = running.keys.sorted() + waiting.map(\.number)
    for task in running.values { task.cancel() }
    running.removeAll()
    waiting.removeAll()
    for number in cancelled {
      core.monitor?.receive(.effectCancelled(effectID(number)))
      triggers[number] = nil
    }
  }

  func isLive(_ number: UInt64) -> Bool { number > cancelledThrough }

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

  func effectID(_ number: UInt64) -> EffectID {
    EffectID(feedback: feedback, number: number, trigger: triggers[number])
  }

  private func start(_ effect: Effect<Event>, number: UInt64) {
    let token = EffectToken(feedback: Int32(feedback.index), number: number)
    switch effect.operation {
    case .none:
      return
    case .send(let event):
      startImmediate(CollectionOfOne(event), token: token)
    case .sendAll(let events):
      startImmediate(events, token: token)
    case .run(let options, let body, let handler):
      core.monitor?.receive(.effectStarted(effectID(number)))
      running[number] = core.spawnEffect(token, options: options, body: body, catch: handler)
    }
  }

  /// An effect that completes at once: its events are queued, nothing runs.
  private func startImmediate(_ events: some Collection<Event>, token: EffectToken) {
    if let monitor = core.monitor {
      let id = effectID(token.number)
      monitor.receive(.effectStarted(id))
      monitor.receive(.effectFinished(id))
      triggers[token.number] = nil
    }
    for event in events { core.enqueueFromLoop(.event(event, token)) }
  }
}
