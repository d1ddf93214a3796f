/// What a monitor asks of the loop beyond its reports: the context taken at
/// each send (``SystemMonitor/captureSendContext``), the count of events
/// waiting (``SystemMonitor/eventsWaiting``) and the count of reductions
/// (``SystemMonitor/countReductions``). One reference in the core,
/// `nil` unless the monitor asks, so that a system without them pays one
/// comparison per send and a system at rest 8 bytes.
@usableFromInline
final class MonitorHooks: @unchecked Sendable {
  // Sendable: the closures are immutable and `@Sendable`; `currentContext`,
  // `uncountedReductions` and `lastReportedWaiting` are read and written
  // only by the thread that owns the loop (as the core's other owner-only
  // fields are), and loop ownership passes between threads through the
  // control word's atomic operations, which order those accesses. For the same reason their
  // accesses are not checked at run time (`@exclusivity(unchecked)`, as the
  // core's own fields): checked, each count cost a thread-local lookup and
  // more than the reduction (W1metrics-noop).

  @usableFromInline let captureSendContext: (@Sendable () -> (any Sendable)?)?
  @usableFromInline let eventsWaiting: (@Sendable (Int) -> Void)?
  @usableFromInline let countReductions: (@Sendable (Int) -> Void)?

  /// The reductions not yet given to `countReductions`.
  @exclusivity(unchecked) @usableFromInline var uncountedReductions = 0

  /// The most reductions a long drain makes before it tells
  /// `countReductions`: a counter read during a burst lags by fewer.
  @usableFromInline static var reductionsPerCount: Int { 1_024 }

  /// The context kept with the event being reduced and fanned out, if it
  /// came with one: the effects its state starts get it.
  @exclusivity(unchecked) @usableFromInline var currentContext: (any Sendable)?

  /// The count last given to `eventsWaiting`.
  @exclusivity(unchecked) @usableFromInline var lastReportedWaiting = 0

  @usableFromInline
  init?<State, Event>(_ monitor: SystemMonitor<State, Event>?) {
    guard let monitor,
      monitor.captureSendContext != nil || monitor.eventsWaiting != nil || monitor.countReductions != nil
    else { return nil }
    captureSendContext = monitor.captureSendContext
    eventsWaiting = monitor.eventsWaiting
    countReductions = monitor.countReductions
  }

  /// Counts one reduction; tells `countReductions` after a whole batch.
  @inlinable @inline(__always)
  func countReduction() {
    uncountedReductions &+= 1
    if uncountedReductions >= Self.reductionsPerCount { tellReductions() }
  }

  /// Tells `countReductions` the reductions not told yet, if any.
  @usableFromInline
  func tellReductions() {
    guard uncountedReductions != 0 else { return }
    let count = uncountedReductions
    uncountedReductions = 0
    // Called through the optional chain, the closure is borrowed: bound
    // with `guard let`, its context was retained and released per call.
    countReductions?(count)
  }

  /// The loop is about to go idle, and this thread still owns it (the
  /// counts are the owner's): what the monitor has not been told yet.
  @inlinable @inline(__always)
  func loopGoesIdle() {
    if uncountedReductions != 0 { tellReductions() }
    if lastReportedWaiting != 0 { reportWaiting(0) }
  }

  /// Reports `count` events waiting, unless it was the last count reported.
  @usableFromInline
  func reportWaiting(_ count: Int) {
    guard count != lastReportedWaiting, let eventsWaiting else { return }
    lastReportedWaiting = count
    eventsWaiting(count)
  }
}
