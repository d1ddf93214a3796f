/// What a monitor asks of the loop beyond its reports: the context taken at
/// each send (``SystemMonitor/captureSendContext``) and the count of events
/// waiting (``SystemMonitor/eventsWaiting``). One reference in the core,
/// `nil` unless the monitor asks, so that a system without them pays one
/// comparison per send and a system at rest 8 bytes.
@usableFromInline
final class MonitorHooks: @unchecked Sendable {
  // Sendable: the closures are immutable and `@Sendable`; `currentContext`
  // and `lastReportedWaiting` are read and written only by the thread that
  // owns the loop (as the core's other owner-only fields are), and loop
  // ownership passes between threads through the control word's atomic
  // operations, which order those accesses.

  @usableFromInline let captureSendContext: (@Sendable () -> (any Sendable)?)?
  @usableFromInline let eventsWaiting: (@Sendable (Int) -> Void)?

  /// The context kept with the event being reduced and fanned out, if it
  /// came with one: the effects its state starts get it.
  @usableFromInline var currentContext: (any Sendable)?

  /// The count last given to `eventsWaiting`.
  @usableFromInline var lastReportedWaiting = 0

  @usableFromInline
  init?<State, Event>(_ monitor: SystemMonitor<State, Event>?) {
    guard let monitor, monitor.captureSendContext != nil || monitor.eventsWaiting != nil else { return nil }
    captureSendContext = monitor.captureSendContext
    eventsWaiting = monitor.eventsWaiting
  }

  /// Reports `count` events waiting, unless it was the last count reported.
  @usableFromInline
  func reportWaiting(_ count: Int) {
    guard count != lastReportedWaiting, let eventsWaiting else { return }
    lastReportedWaiting = count
    eventsWaiting(count)
  }
}
