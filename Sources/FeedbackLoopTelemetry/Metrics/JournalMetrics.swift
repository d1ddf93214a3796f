import CoreMetrics

/// The handles of one ``MetricsJournal``, made once with it: nothing is
/// made per append.
final class JournalMetrics: Sendable {
  let appendDuration: Timer
  let appendEvents: Recorder
  let refusedFenced: Counter
  let refusedStaleSequence: Counter
  let refusedFailed: Counter

  init(system: String, factory: any MetricsFactory) {
    let dimensions = [(MetricNames.system, system)]
    appendDuration = Timer(label: MetricNames.journalAppendDuration, dimensions: dimensions, factory: factory)
    appendEvents = Recorder(label: MetricNames.journalAppendEvents, dimensions: dimensions, factory: factory)
    func refused(_ reason: String) -> Counter {
      Counter(
        label: MetricNames.journalAppendsRefused, dimensions: dimensions + [(MetricNames.reason, reason)],
        factory: factory)
    }
    refusedFenced = refused(MetricNames.RefusedAppendReason.fenced)
    refusedStaleSequence = refused(MetricNames.RefusedAppendReason.staleSequence)
    refusedFailed = refused(MetricNames.RefusedAppendReason.failed)
  }
}
