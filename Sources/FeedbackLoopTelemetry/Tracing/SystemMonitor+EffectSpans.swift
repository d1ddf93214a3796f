import FeedbackLoop
import Tracing

extension SystemMonitor {
  /// A monitor that traces each effect of a system as a span of
  /// swift-distributed-tracing.
  ///
  /// A span starts when an effect starts; its operation name is the
  /// feedback's name. It ends when the effect finishes; when it fails, with
  /// the error recorded and the status `error`; when it is cancelled, with
  /// the attribute `feedbackloop.effect.cancelled` set to `true`. When the
  /// system stops, it cancels its running effects: their spans end as cancelled. Each span carries
  /// `feedbackloop.system` (`label`), `feedbackloop.effect.number` and, when
  /// the core knows it, `feedbackloop.effect.trigger` (the query, request or
  /// key, as text).
  ///
  /// The spans go to `tracer`, by default the one the app bootstrapped
  /// (`InstrumentationSystem.bootstrap(_:)`); before it bootstraps one, to
  /// the no-op tracer.
  ///
  /// An effect's span continues the sender's trace: the service context
  /// current where an event was sent (`ServiceContext.current`) travels with
  /// the event, and the span of each effect that the event's state starts
  /// is a child of it. The effect's task runs with its span's context
  /// current, so that what its code traces (an outbound HTTP call, a send
  /// to another system) is a child of the effect's span. An effect started
  /// by the initial state, or by an event sent where no context was
  /// current, starts a trace of its own. An effect that runs no task (one
  /// that only sends events) has no span.
  ///
  /// ```swift
  /// InstrumentationSystem.bootstrap(tracer)
  /// let search = System(
  ///   initial: Search.State(), reduce: Search.reduce, feedbacks: Search.feedbacks(api: api),
  ///   monitor: .effectSpans(label: "search")
  /// )
  /// ```
  public static func effectSpans(label: String, tracer: any Tracer = InstrumentationSystem.tracer) -> SystemMonitor {
    let spans = EffectSpans(system: label, tracer: tracer)
    // Reductions are not traced: the loop only counts them, with no copy
    // of the state; a span's trigger attribute needs the triggers.
    var monitor = SystemMonitor(
      { activity in spans.report(activity) }, countingReductions: { _ in }, describingTriggers: true)
    monitor.captureSendContext = { ServiceContext.current }
    monitor.effectTaskScope = { effect, sendContext, startTask in
      spans.startTask(of: effect, sendContext: sendContext, startTask)
    }
    return monitor
  }
}
