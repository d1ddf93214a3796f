import FeedbackLoop

/// The delayed transitions of one system that runs a chart's
/// ``Statechart/feedbacks`` (each system makes its own): a ``DelayQueue`` per
/// run, so that delays due at the same moment expire in the order they were
/// started, whatever order the clock wakes their tasks in.
///
/// Each delay is still an effect of its own query feedback (so leaving its
/// state cancels it, G4), and its task still sleeps on the system's clock
/// (G11). What changes is who sends the expiry: the first task to wake
/// sends, in order, every delay that is due by the time it read from the
/// clock, its own included, each through that delay's own `Send`; a task
/// whose delay someone else sent just ends. One task sends at a time, so
/// the expiries are reduced in the order they are sent (G2).
///
/// A due delay whose task has not started yet (the executor has not run
/// it) holds the deliveries after it: its task delivers it, and them, when
/// it starts.
final class ChartDelays: Sendable {
  /// What the delay feedbacks of one ``Statechart/feedbacks`` array find
  /// their system's ``ChartDelays`` by.
  final class Key: Sendable {}

  /// A run's queue, and the clock its times are read from.
  struct Run: Sendable {
    let token: ChartRun
    var queue = DelayQueue()
    var clock: RunClock?
  }

  /// A run's clock: the moment its times count from, and how to read it.
  struct RunClock: Sendable {
    let origin: any Sendable
    let now: @Sendable () -> Duration
  }

  /// A ticket for one armed delay.
  struct Ticket: Sendable {
    let run: ObjectIdentifier
    let number: UInt64
  }

  /// The runs that have delays, and the last delay's number: numbers are
  /// never used twice, even by a run forgotten and started again, so that a
  /// late task of a forgotten delay never finds another delay under its
  /// number.
  struct Runs: Sendable {
    var byToken: [ObjectIdentifier: Run] = [:]
    var lastNumber: UInt64 = 0

    subscript(key: ObjectIdentifier) -> Run? {
      get { byToken[key] }
      set { byToken[key] = newValue }
    }
  }

  private let runs = Locked(Runs())

  init() {}

  /// Arms a delay of `duration` in `run`, on the loop's thread, as its
  /// feedback starts it: its start is read now, if the run's clock is known.
  func start(_ duration: Duration, in run: ChartRun) -> Ticket {
    let key = ObjectIdentifier(run)
    return runs.withLock { runs in
      var state = runs[key] ?? Run(token: run)
      runs.lastNumber += 1
      state.queue.start(runs.lastNumber, duration: duration, now: state.clock?.now())
      runs[key] = state
      return Ticket(run: key, number: runs.lastNumber)
    }
  }

  /// The delay's task: sleeps until the delay is due, then makes sure it is
  /// sent, in order, through `deliver`. Returns once it was sent; throws
  /// `CancellationError` if the task is cancelled first.
  func expire<C: Clock>(
    _ ticket: Ticket, clock: C, deliver: @escaping @Sendable () -> Void
  ) async throws where C.Duration == Duration {
    let started = runs.withLock { runs -> (deadline: Duration, origin: C.Instant, isDue: Bool)? in
      guard var state = runs[ticket.run] else { return nil }
      if state.clock == nil {
        let origin = clock.now
        state.clock = RunClock(origin: origin, now: { origin.duration(to: clock.now) })
      }
      // One system, one clock (`Send.clock` is its environment's): the
      // first task's clock is this task's.
      guard let runClock = state.clock, let origin = runClock.origin as? C.Instant else {
        fatalError("FeedbackLoopDeclarative: a statechart's delays ran on two clocks of different types in one system")
      }
      let started = state.queue.taskStarted(ticket.number, now: runClock.now(), deliver: deliver)
      runs[ticket.run] = state
      return started.map { ($0.deadline, origin, $0.isDue) }
    }
    guard let started else { return }
    do {
      try Task.checkCancellation()
      if started.isDue { deliverDue(in: ticket.run) }
      try await clock.sleep(until: started.origin.advanced(by: started.deadline), tolerance: nil)
      // The clock woke this task: its deadline is reached, whatever the
      // clock reads now (a reading that lags its timer would otherwise
      // leave the delay due to no one, and never sent).
      runs.withLock { runs in
        guard let now = runs[ticket.run]?.clock?.now() else { return }
        runs[ticket.run]?.queue.reach(max(now, started.deadline))
      }
      deliverDue(in: ticket.run)
      try await waitForDelivery(ticket)
    } catch {
      cancel(ticket)
      throw error
    }
  }

  /// Waits until delay `ticket` was sent (by this task or another).
  private func waitForDelivery(_ ticket: Ticket) async throws {
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<Void, any Error>) in
        let waits = runs.withLock { runs in
          if Task.isCancelled { return false }
          return runs[ticket.run]?.queue.wait(ticket.number, on: waiter) ?? false
        }
        if !waits {
          if Task.isCancelled { waiter.resume(throwing: CancellationError()) } else { waiter.resume() }
        }
      }
    } onCancel: {
      let waiter = runs.withLock { runs in runs[ticket.run]?.queue.cancel(ticket.number) }
      waiter?.resume(throwing: CancellationError())
    }
  }

  /// Forgets a delay that was cancelled (or never sent), and lets the
  /// deliveries it held go on.
  private func cancel(_ ticket: Ticket) {
    let waiter = runs.withLock { runs in runs[ticket.run]?.queue.cancel(ticket.number) }
    waiter?.resume(throwing: CancellationError())
    deliverDue(in: ticket.run)
  }

  /// Sends every due delay of a run in order, unless another task does.
  private func deliverDue(in run: ObjectIdentifier) {
    guard runs.withLock({ runs in runs[run]?.queue.beginDelivering() ?? false }) else { return }
    while true {
      let step = runs.withLock { runs -> DelayQueue.Step in
        guard let step = runs[run]?.queue.nextStep() else { return .done }
        if case .done = step, runs[run]?.queue.isIdle == true { runs[run] = nil }
        return step
      }
      guard case .deliver(let deliver, let waiter) = step else { return }
      // Outside the lock: sending may reduce at once, on this thread, and
      // start or cancel other delays.
      deliver()
      waiter?.resume()
    }
  }
}
