import FeedbackLoopDurable
// Metrics, not only CoreMetrics: `Timer.record(duration:)` converts a
// `Duration` without overflow.
import Metrics

/// A `Journal` that records, in swift-metrics, how the journal it wraps
/// answers appends: each append's latency, its batch size, and the batches
/// it did not store, by reason.
///
/// Make one with `Journal.withMetrics(label:factory:clock:)` and give it to
/// the writer in place of the journal it wraps; everything else it forwards
/// untouched. It is a `FullHistoryJournal` when the wrapped journal is
/// one, so that a replay check reads through it too.
///
/// ```swift
/// let journal = try SQLiteJournal(path: "carts.sqlite").withMetrics(label: "carts")
/// let writer = JournalWriter(journal: journal)
/// ```
///
/// Only ``append(_:)`` is measured: it is the one call on a durable
/// system's path (claims and loads happen once per restore).
public struct MetricsJournal<Base: Journal>: Journal {
  /// The journal that stores the events.
  public let base: Base
  private let metrics: JournalMetrics
  /// Starts timing an append; the closure it returns reads the time since.
  /// A closure, so that the clock's type is not one of this type's
  /// generic parameters.
  private let startTiming: @Sendable () -> @Sendable () -> Duration

  init<C: Clock>(wrapping base: Base, label: String, factory: any MetricsFactory, clock: C)
  where C.Duration == Duration {
    self.base = base
    self.metrics = JournalMetrics(system: label, factory: factory)
    self.startTiming = {
      let start = clock.now
      return { start.duration(to: clock.now) }
    }
  }

  public func append(_ batches: [JournalBatch]) async throws -> [JournalAppendResult] {
    metrics.appendEvents.record(batches.reduce(0) { $0 + $1.events.count })
    let elapsed = startTiming()
    let results: [JournalAppendResult]
    do {
      results = try await base.append(batches)
    } catch {
      metrics.appendDuration.record(duration: elapsed())
      metrics.refusedFailed.increment(by: Int64(batches.count))
      throw error
    }
    metrics.appendDuration.record(duration: elapsed())
    for case .refused(let conflict) in results {
      (conflict.isFenced ? metrics.refusedFenced : metrics.refusedStaleSequence).increment()
    }
    return results
  }

  public func claim(_ systemID: String) async throws -> JournalClaim {
    try await base.claim(systemID)
  }

  public func load(_ systemID: String) async throws -> JournalHistory? {
    try await base.load(systemID)
  }

  public func systemIDs(after id: String?, limit: Int) async throws -> [String] {
    try await base.systemIDs(after: id, limit: limit)
  }

  public func delete(_ systemID: String) async throws {
    try await base.delete(systemID)
  }
}

extension MetricsJournal: FullHistoryJournal where Base: FullHistoryJournal {
  public func events(of systemID: String, after sequence: UInt64, limit: Int) async throws -> [JournalRecord] {
    try await base.events(of: systemID, after: sequence, limit: limit)
  }

  public func latestSnapshot(of systemID: String) async throws -> JournalRecord? {
    try await base.latestSnapshot(of: systemID)
  }
}
