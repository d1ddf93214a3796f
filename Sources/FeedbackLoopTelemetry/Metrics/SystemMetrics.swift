import CoreMetrics
import FeedbackLoop

/// The handles and bookkeeping behind `SystemMonitor.metrics(label:factory:clock:)`.
///
/// The system-wide handles are made once, with the monitor; a feedback's
/// handles on its first effect, then kept (a system has a fixed number of
/// feedbacks, so the table is bounded). Nothing is made per event.
final class SystemMetrics<C: Clock>: Sendable where C.Duration == Duration {
  let reduced: Counter
  let waiting: Meter
  private let discardedCancelled: Counter
  private let discardedBufferFull: Counter
  private let discardedStopped: Counter
  private let discardedNoSuchChild: Counter
  private let discardedOther: Counter
  private let system: String
  private let factory: any MetricsFactory
  private let clock: C
  // `Locked`, not a bare `Mutex`: ThreadSanitizer sees its hand-over (see `Locked`).
  private let table = Locked(Table())

  /// What the lock keeps: each feedback's handles, and when each running
  /// effect started (running effects only: bounded by the effects in flight).
  private struct Table {
    var feedbacks: [Int: FeedbackMetrics] = [:]
    var running: [RunningEffect: C.Instant] = [:]
    var isStopped = false
  }

  /// An effect, by its feedback's position and its number: hashing an
  /// `EffectID` would build its feedback's name.
  private struct RunningEffect: Hashable {
    let feedback: Int
    let number: UInt64

    init(_ effect: EffectID) {
      feedback = effect.feedback.index
      number = effect.number
    }
  }

  init(system: String, factory: any MetricsFactory, clock: C) {
    self.system = system
    self.factory = factory
    self.clock = clock
    let systemDimension = [(MetricNames.system, system)]
    reduced = Counter(label: MetricNames.eventsReduced, dimensions: systemDimension, factory: factory)
    waiting = Meter(label: MetricNames.eventsWaiting, dimensions: systemDimension, factory: factory)
    func discarded(_ reason: String) -> Counter {
      Counter(
        label: MetricNames.eventsDiscarded, dimensions: systemDimension + [(MetricNames.reason, reason)],
        factory: factory)
    }
    discardedCancelled = discarded(MetricNames.DiscardedReason.effectCancelled)
    discardedBufferFull = discarded(MetricNames.DiscardedReason.bufferFull)
    discardedStopped = discarded(MetricNames.DiscardedReason.systemStopped)
    discardedNoSuchChild = discarded(MetricNames.DiscardedReason.noSuchChild)
    discardedOther = discarded(MetricNames.DiscardedReason.other)
  }

  func report<State, Event>(_ activity: SystemActivity<State, Event>) {
    switch activity {
    case .reduced: reduced.increment()
    case .eventDiscarded(_, let reason): discarded(reason).increment()
    case .effectQueued(let effect): withFeedback(of: effect) { handles, _ in handles.queued.increment() }
    case .effectStarted(let effect):
      let now = clock.now
      withFeedback(of: effect) { handles, table in
        table.running[RunningEffect(effect)] = now
        handles.started.increment()
        handles.inFlight.increment()
      }
    case .effectCancelled(let effect): end(effect) { $0.cancelled.increment() }
    case .effectFinished(let effect): end(effect) { $0.finished.increment() }
    case .effectFailed(let effect, _): end(effect) { $0.failed.increment() }
    case .stopped: stop()
    default: break
    }
  }

  private func discarded(_ reason: DiscardReason) -> Counter {
    if reason.cancelledEffect != nil { return discardedCancelled }
    if reason == .bufferFull { return discardedBufferFull }
    if reason == .systemStopped { return discardedStopped }
    if reason.missingChild != nil { return discardedNoSuchChild }
    return discardedOther
  }

  /// Calls `body` with the feedback's handles, made on its first effect,
  /// unless the system stopped (its effects were all counted then).
  private func withFeedback(of effect: EffectID, _ body: (FeedbackMetrics, inout Table) -> Void) {
    table.withLock { table in
      guard !table.isStopped else { return }
      let index = effect.feedback.index
      let handles: FeedbackMetrics
      if let known = table.feedbacks[index] {
        handles = known
      } else {
        handles = FeedbackMetrics(system: system, feedback: effect.feedback.name, factory: factory)
        table.feedbacks[index] = handles
      }
      body(handles, &table)
    }
  }

  /// Counts an effect's end; if it had started (not only queued), it is no
  /// longer in flight and its duration is recorded.
  private func end(_ effect: EffectID, counting: (FeedbackMetrics) -> Void) {
    let now = clock.now
    withFeedback(of: effect) { handles, table in
      counting(handles)
      if let start = table.running.removeValue(forKey: RunningEffect(effect)) {
        handles.ended(after: start.duration(to: now))
      }
    }
  }

  /// A safety net: the core reports each running effect cancelled before it
  /// reports `.stopped`, so none is left here today. If one were, it would
  /// count as cancelled and leave the in-flight gauge, and what the core
  /// reported about it afterwards would be ignored, so that none counts twice.
  private func stop() {
    let now = clock.now
    table.withLock { table in
      guard !table.isStopped else { return }
      table.isStopped = true
      for (effect, start) in table.running {
        guard let handles = table.feedbacks[effect.feedback] else { continue }
        handles.cancelled.increment()
        handles.ended(after: start.duration(to: now))
      }
      table.running = [:]
    }
  }
}

/// One feedback's handles.
final class FeedbackMetrics: Sendable {
  let queued: Counter
  let started: Counter
  let cancelled: Counter
  let finished: Counter
  let failed: Counter
  let inFlight: Meter
  let duration: Timer

  init(system: String, feedback: String, factory: any MetricsFactory) {
    let dimensions = [(MetricNames.system, system), (MetricNames.feedback, feedback)]
    queued = Counter(label: MetricNames.effectsQueued, dimensions: dimensions, factory: factory)
    started = Counter(label: MetricNames.effectsStarted, dimensions: dimensions, factory: factory)
    cancelled = Counter(label: MetricNames.effectsCancelled, dimensions: dimensions, factory: factory)
    finished = Counter(label: MetricNames.effectsFinished, dimensions: dimensions, factory: factory)
    failed = Counter(label: MetricNames.effectsFailed, dimensions: dimensions, factory: factory)
    inFlight = Meter(label: MetricNames.effectsInFlight, dimensions: dimensions, factory: factory)
    duration = Timer(label: MetricNames.effectDuration, dimensions: dimensions, factory: factory)
  }

  func ended(after duration: Duration) {
    inFlight.decrement()
    // A clock that a test moves by years must not trap: the figure saturates.
    let (seconds, attoseconds) = duration.components
    let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    let (nanoseconds, overflowAgain) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
    self.duration.recordNanoseconds(overflow || overflowAgain ? (seconds < 0 ? 0 : .max) : max(0, nanoseconds))
  }
}
