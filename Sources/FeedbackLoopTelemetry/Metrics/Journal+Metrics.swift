import CoreMetrics
import FeedbackLoopDurable

extension Journal {
  /// This journal, recording in swift-metrics each append's latency, its
  /// batch size, and the batches it did not store.
  ///
  /// Give the result to the writer in place of the journal: the durable
  /// systems, the host and the writer work as before, and every
  /// `Journal.append(_:)` of the writer's group commit is measured.
  ///
  /// ```swift
  /// MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
  /// let journal = try SQLiteJournal(path: "carts.sqlite").withMetrics(label: "carts")
  /// let writer = JournalWriter(journal: journal)
  /// let cart = try await DurableSystem.restore(
  ///   id: "cart-42", writer: writer, initial: Cart(), reduce: Cart.reduce,
  ///   monitor: .metrics(label: "carts"))
  /// ```
  ///
  /// It records, each with the dimension `system` set to `label`:
  ///
  /// - `feedbackloop_journal_append_duration`, a timer: how long each
  ///   append took, read on `clock`, whether it returned or threw;
  /// - `feedbackloop_journal_append_events`, a recorder: the events each
  ///   append was handed, all its batches together;
  /// - `feedbackloop_journal_appends_refused`, a counter of the batches not
  ///   stored, with the dimension `reason`: `fenced` (another process
  ///   claimed the system since), `stale_sequence` (something else wrote to
  ///   it), `failed` (the append threw, and each of its batches counts).
  ///
  /// A journal serves every system of its writer, so `label` names the
  /// journal's kind of systems (`"carts"`), never a system's id: each label
  /// is a time series of its own in the backend. The same label as the
  /// systems' `SystemMonitor.metrics(label:factory:clock:)` puts the journal's figures
  /// beside theirs.
  ///
  /// - Parameters:
  ///   - label: the value of the `system` dimension.
  ///   - factory: where the metrics go; by default the one the app
  ///     bootstrapped (`MetricsSystem.bootstrap(_:)`).
  ///   - clock: the clock the latency is read on; a test passes a test clock.
  public func withMetrics<C: Clock>(
    label: String, factory: any MetricsFactory = MetricsSystem.factory, clock: C = ContinuousClock()
  ) -> MetricsJournal<Self> where C.Duration == Duration {
    MetricsJournal(wrapping: self, label: label, factory: factory, clock: clock)
  }
}
