import DequeModule

/// Starts and cancels the effects of one feedback under its
/// ``ExecutionStrategy`` (G7), and says which effects' events are still
/// welcome (G4).
///
/// Effects are numbered from 1 in the order they start. Cancelling is a
/// watermark: every effect numbered at most `cancelledThrough` is cancelled,
/// so checking an event costs one comparison and a synchronous effect
/// (`.send`) needs no bookkeeping at all. Owned by the draining thread.
final class EffectRunner<State: Sendable, Event: Sendable> {
  private unowned(unsafe) let core: SystemCore<State, Event>
  private let feedback: FeedbackID
  private let strategy: ExecutionStrategy
  private var lastNumber: UInt64 = 0
  private var cancelledThrough: UInt64 = 0
  private var running: [UInt64: RunningEffect] = [:]
  private var waiting = Deque<(effect: Effect<Event>, trigger: String?)>()
  private var triggers: [UInt64: String] = [:]

  private struct RunningEffect {
    let task: Task<Void, Never>
  }

  init(core: SystemCore<State, Event>, feedback: FeedbackID, strategy: ExecutionStrategy) {
    self.core = core
    self.feedback = feedback
    self.strategy = strategy
  }

  var hasRunningEffects: Bool { !running.isEmpty || !waiting.isEmpty }

  /// A new trigger: start `effect` as the strategy says.
  func trigger(_ effect: Effect<Event>, because trigger: @autoclosure () -> String?) {
    switch strategy {
    case .cancelPrevious:
      cancelAll()
      start(effect, trigger: core.monitor == nil ? nil : trigger())
    case .merge:
      start(effect, trigger: core.monitor == nil ? nil : trigger())
    case .queue:
      if running.isEmpty && waiting.isEmpty {
        start(effect, trigger: core.monitor == nil ? nil : trigger())
      } else if case .none = effect.operation {
        return
      } else {
        waiting.append((effect, core.monitor == nil ? nil : trigger()))
      }
    }
  }

  /// Cancels every running and waiting effect; their pending events are dropped.
  func cancelAll() {
    cancelledThrough = lastNumber
    waiting.removeAll()
    guard !running.isEmpty else { return }
    let cancelled = running
    running.removeAll()
    for (number, effect) in cancelled.sorted(by: { $0.key < $1.key }) {
      effect.task.cancel()
      core.monitor?.receive(.effectCancelled(effectID(number)))
      triggers[number] = nil
    }
  }

  func isLive(_ number: UInt64) -> Bool { number > cancelledThrough }

  func effectEnded(_ number: UInt64, outcome: EffectOutcome) {
    guard running.removeValue(forKey: number) != nil else { return }
    report(number, outcome)
    triggers[number] = nil
    if strategy == .queue, running.isEmpty, let next = waiting.popFirst() {
      start(next.effect, trigger: next.trigger)
    }
  }

  func effectID(_ number: UInt64) -> EffectID {
    EffectID(feedback: feedback, number: number, trigger: triggers[number])
  }

  private func report(_ number: UInt64, _ outcome: EffectOutcome) {
    switch outcome {
    case .finished, .cancelled:
      core.monitor?.receive(.effectFinished(effectID(number)))
    case .failed(let error):
      core.reportUnmappedError(error, of: effectID(number))
    }
  }

  private func start(_ effect: Effect<Event>, trigger: String?) {
    switch effect.operation {
    case .none:
      return
    case .send(let event):
      startImmediate(CollectionOfOne(event), trigger: trigger)
    case .sendAll(let events):
      startImmediate(events, trigger: trigger)
    case .run(let options, let body, let handler):
      lastNumber += 1
      let number = lastNumber
      if let trigger { triggers[number] = trigger }
      core.monitor?.receive(.effectStarted(effectID(number)))
      let token = EffectToken(feedback: Int32(feedback.index), number: number)
      running[number] = RunningEffect(task: core.spawnEffect(token, options: options, body: body, catch: handler))
    }
  }

  /// An effect that completes at once: its events are queued, nothing runs.
  private func startImmediate(_ events: some Collection<Event>, trigger: String?) {
    lastNumber += 1
    if let monitor = core.monitor {
      let id = EffectID(feedback: feedback, number: lastNumber, trigger: trigger)
      monitor.receive(.effectStarted(id))
      monitor.receive(.effectFinished(id))
    }
    let token = EffectToken(feedback: Int32(feedback.index), number: lastNumber)
    for event in events { core.enqueueFromLoop(.event(event, token)) }
  }
}
