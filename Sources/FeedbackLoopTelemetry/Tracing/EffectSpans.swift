import FeedbackLoop
import Tracing

/// The open spans behind `SystemMonitor.effectSpans(label:tracer:)`, one per
/// running effect.
final class EffectSpans: Sendable {
  private let system: String
  private let tracer: any Tracer
  // `Locked`, not a bare `Mutex`: ThreadSanitizer sees its hand-over (see `Locked`).
  private let table = Locked(Table())

  private struct Table {
    var open: [RunningEffect: any Span] = [:]
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

  /// The attributes the spans carry.
  enum Attribute {
    static let system = "feedbackloop.system"
    static let effectNumber = "feedbackloop.effect.number"
    static let trigger = "feedbackloop.effect.trigger"
    static let cancelled = "feedbackloop.effect.cancelled"
  }

  init(system: String, tracer: any Tracer) {
    self.system = system
    self.tracer = tracer
  }

  func report<State, Event>(_ activity: SystemActivity<State, Event>) {
    switch activity {
    case .effectFinished(let effect): take(effect)?.end()
    case .effectFailed(let effect, let error):
      guard let span = take(effect) else { return }
      span.recordError(error)
      span.setStatus(SpanStatus(code: .error, message: "\(error)"))
      span.end()
    case .effectCancelled(let effect):
      guard let span = take(effect) else { return }
      span.attributes[Attribute.cancelled] = true
      span.end()
    case .stopped: stop()
    default: break
    }
  }

  /// Starts the effect's span, a child of the span current where the
  /// event whose state started the effect was sent (a span of its own
  /// trace if none was), and starts the effect's task with the span's
  /// context current, so that what the effect traces is its child.
  func startTask(
    of effect: EffectID, sendContext: (any Sendable)?, _ startTask: () -> Task<Void, Never>
  ) -> Task<Void, Never> {
    let span = start(effect, parent: sendContext as? ServiceContext ?? .topLevel)
    return ServiceContext.withValue(span.context) { startTask() }
  }

  private func start(_ effect: EffectID, parent: ServiceContext) -> any Span {
    let span = tracer.startSpan(effect.feedback.name, context: parent) as any Span
    span.attributes[Attribute.system] = system
    span.attributes[Attribute.effectNumber] = Int64(truncatingIfNeeded: effect.number)
    if let trigger = effect.trigger { span.attributes[Attribute.trigger] = trigger }
    let refused: (any Span)? = table.withLock { table in
      guard !table.isStopped else { return span }
      table.open[RunningEffect(effect)] = span
      return nil
    }
    // Started as the system stopped: it never runs.
    if let refused {
      refused.attributes[Attribute.cancelled] = true
      refused.end()
    }
    return span
  }

  private func take(_ effect: EffectID) -> (any Span)? {
    table.withLock { $0.open.removeValue(forKey: RunningEffect(effect)) }
  }

  /// A safety net: the core reports each running effect cancelled before
  /// it reports `.stopped`, so no span is open here today; if one were, it
  /// would end as cancelled rather than stay open for good.
  private func stop() {
    let open = table.withLock { table in
      table.isStopped = true
      defer { table.open = [:] }
      return Array(table.open.values)
    }
    for span in open {
      span.attributes[Attribute.cancelled] = true
      span.end()
    }
  }
}
