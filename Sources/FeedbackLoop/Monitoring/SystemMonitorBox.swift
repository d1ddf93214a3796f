/// A system's monitor behind one reference: the core keeps this box rather
/// than the monitor's closures inline, so that a system without a monitor
/// pays one word for it (W4, the idle system's memory), and a call borrows
/// the box's constant monitor instead of copying it.
@usableFromInline
final class SystemMonitorBox<State: Sendable, Event: Sendable>: Sendable {
  @usableFromInline let monitor: SystemMonitor<State, Event>

  @usableFromInline
  init(_ monitor: SystemMonitor<State, Event>) {
    self.monitor = monitor
  }
}
