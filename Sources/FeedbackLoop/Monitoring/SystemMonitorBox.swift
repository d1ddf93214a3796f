/// A system's monitor behind one reference: the core keeps this box rather
/// than the monitor's closures inline, so that a system without a monitor
/// pays one word for it (W4, the idle system's memory), and a call borrows
/// the box's constant monitor instead of copying it.
@usableFromInline
final class SystemMonitorBox<State: Sendable, Event: Sendable>: @unchecked Sendable {
  // Sendable: `monitor` is a constant; `triggers` is read and written by
  // the thread that owns the system's loop alone (the effectful runtimes'
  // bookkeeping, which only that thread runs), and the box outlives those
  // accesses (the core releases it in `destroyState`, on that thread).
  @usableFromInline let monitor: SystemMonitor<State, Event>

  /// What started each running or waiting effect (its query, request or
  /// key, as text), by feedback and number, for a monitor that
  /// ``SystemMonitor/describesTriggers``. Here, not in each runtime: an
  /// unmonitored system's feedbacks then carry no table (W4).
  @exclusivity(unchecked) @usableFromInline var triggers: [EffectToken: String] = [:]

  @usableFromInline
  init(_ monitor: SystemMonitor<State, Event>) {
    self.monitor = monitor
  }
}
