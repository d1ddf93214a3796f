/// The delays of one run of a chart, as a state machine: which delays are
/// armed, when each is due, and which one is delivered next. ``ChartDelays``
/// keeps one per run, behind its lock, and does the waiting.
///
/// Times are durations since the queue's origin, a moment of the run's
/// clock: the queue compares them without knowing the clock's type.
///
/// The order it keeps (SCXML's event queue): delays are delivered by
/// deadline, and delays due at the same moment in the order they were
/// started. A delay's deadline is its start plus its duration; its start is
/// read from the clock when the loop starts it, or, for the delays started
/// before the run's first delay task told the queue its clock, the moment
/// that task read it. So starts never decrease in the order of starting,
/// and equal delays started in that order are due in that order.
struct DelayQueue: Sendable {
  /// An armed delay.
  struct Delay: Sendable {
    let duration: Duration
    /// When it is due; `nil` until the queue knows its clock.
    var deadline: Duration?
    /// Sends the delay's expiry: its task's `Send`; `nil` until its task
    /// starts.
    var deliver: (@Sendable () -> Void)?
    /// The task that waits for this delay's delivery, once it waits.
    var waiter: CheckedContinuation<Void, any Error>?
  }

  /// What the next step of a delivery is.
  enum Step: Sendable {
    /// Deliver this delay, then resume its task.
    case deliver(@Sendable () -> Void, waiter: CheckedContinuation<Void, any Error>?)
    /// Nothing more is due, or the next due delay's task has not started
    /// yet (it delivers when it starts).
    case done
  }

  private(set) var delays: [UInt64: Delay] = [:]
  /// The latest moment a woken delay read from the clock: every delay due
  /// by then may be delivered.
  private var reached: Duration?
  /// Whether a task is delivering: one at a time, so that the deliveries are
  /// sent in order.
  private(set) var isDelivering = false

  /// Whether the queue holds nothing and nobody delivers: its run may be
  /// forgotten.
  var isIdle: Bool { delays.isEmpty && !isDelivering }

  /// Arms delay `number` (numbers grow in the order of starting, and are
  /// never used twice) of `duration`, started `now` (`nil` while the clock
  /// is unknown).
  mutating func start(_ number: UInt64, duration: Duration, now: Duration?) {
    delays[number] = Delay(duration: duration, deadline: now.map { $0 + duration })
  }

  /// The delay `number`'s task started, `now` on the clock: it delivers
  /// through `deliver`. The delays started before the clock was known start
  /// now. Returns the delay's deadline and whether it is due already, or
  /// `nil` if it was removed.
  mutating func taskStarted(
    _ number: UInt64, now: Duration, deliver: @escaping @Sendable () -> Void
  ) -> (deadline: Duration, isDue: Bool)? {
    for (key, delay) in delays where delay.deadline == nil {
      delays[key]?.deadline = now + delay.duration
    }
    guard let deadline = delays[number]?.deadline else { return nil }
    delays[number]?.deliver = deliver
    return (deadline, reached.map { deadline <= $0 } ?? false)
  }

  /// A delay woke on the clock at `now`: every delay due by then may be
  /// delivered.
  mutating func reach(_ now: Duration) {
    if let reached, reached >= now { return }
    reached = now
  }

  /// Removes a delay whose task was cancelled, or that was delivered.
  mutating func remove(_ number: UInt64) {
    delays[number] = nil
  }

  /// Whether delay `number` is still waiting for its delivery; if so, its
  /// task waits on `waiter`.
  mutating func wait(_ number: UInt64, on waiter: CheckedContinuation<Void, any Error>) -> Bool {
    guard delays[number] != nil else { return false }
    delays[number]?.waiter = waiter
    return true
  }

  /// Takes the waiter of a cancelled delay, and removes the delay.
  mutating func cancel(_ number: UInt64) -> CheckedContinuation<Void, any Error>? {
    defer { delays[number] = nil }
    return delays[number]?.waiter
  }

  /// Becomes the deliverer, unless a task delivers already (it will see
  /// what changed: it reads the queue again before each delivery).
  mutating func beginDelivering() -> Bool {
    guard !isDelivering else { return false }
    isDelivering = true
    return true
  }

  /// The next step of the deliverer: the earliest delay by deadline, then
  /// by start, if it is due and its task can send it.
  mutating func nextStep() -> Step {
    var earliest: (number: UInt64, deadline: Duration)?
    for (number, delay) in delays {
      guard let deadline = delay.deadline else { continue }
      if let best = earliest, (best.deadline, best.number) < (deadline, number) { continue }
      earliest = (number, deadline)
    }
    guard let earliest, let reached, earliest.deadline <= reached,
      let delay = delays[earliest.number], let deliver = delay.deliver
    else {
      isDelivering = false
      return .done
    }
    delays[earliest.number] = nil
    return .deliver(deliver, waiter: delay.waiter)
  }
}
