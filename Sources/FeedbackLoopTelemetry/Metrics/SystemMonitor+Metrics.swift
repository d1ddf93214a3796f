import CoreMetrics
import FeedbackLoop

extension SystemMonitor {
  /// A monitor that counts what a system does in swift-metrics: events
  /// reduced, discarded and waiting, and each feedback's effects, their number in
  /// flight and their duration.
  ///
  /// Every metric has the dimension `system`, set to `label`: choose one
  /// label per kind of system (`"search"`, `"checkout"`), never one per
  /// user, request or id, since each label makes its own time series in the
  /// backend. Per-feedback metrics add the dimension `feedback`, the
  /// feedback's name (`FeedbackID.name`): name your feedbacks, so that the
  /// figures say which one.
  ///
  /// The metrics go to `factory`, by default the one the app bootstrapped
  /// (`MetricsSystem.bootstrap(_:)`); before it bootstraps one, they go
  /// nowhere, at the cost of a call per activity. The monitor reads no
  /// state: the loop counts its reductions and adds them to the counter
  /// when it goes idle (and every 1,024 reductions of a longer burst, and
  /// before it stops), so a read of `feedbackloop_events_reduced` while a
  /// system drains a burst may lag behind by that much. Effect durations
  /// are read on `clock`.
  ///
  /// ```swift
  /// MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
  /// let search = System(
  ///   initial: Search.State(), reduce: Search.reduce, feedbacks: Search.feedbacks(api: api),
  ///   monitor: .metrics(label: "search")
  /// )
  /// ```
  ///
  /// The metrics, their labels and what each one means are listed in
  /// <doc:WatchingALoopInProduction>.
  public static func metrics<C: Clock>(
    label: String, factory: any MetricsFactory = MetricsSystem.factory, clock: C = ContinuousClock()
  ) -> SystemMonitor where C.Duration == Duration {
    let metrics = SystemMetrics(system: label, factory: factory, clock: clock)
    let reduced = metrics.reduced
    let waiting = metrics.waiting
    var monitor = SystemMonitor(
      { activity in metrics.report(activity) },
      countingReductions: { count in reduced.increment(by: Int64(count)) }, describingTriggers: false)
    monitor.eventsWaiting = { count in waiting.set(count) }
    return monitor
  }
}
