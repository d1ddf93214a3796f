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
  /// Not there yet: an effect's span is a root span (a span of its own
  /// trace). It does not continue the trace of the code that sent the event
  /// which started the effect, and it is not the parent of what the effect's
  /// own code traces: both need the core to carry the sender's context with
  /// the event, which it does not do yet.
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
    return SystemMonitor { activity in spans.report(activity) }
  }
}
