import FeedbackLoop

/// One prepared run of a workload.
///
/// Making a trial does the set-up (builds the events, and the system when it
/// is not part of what is measured); ``run`` is the part that is measured;
/// ``finish`` checks the outcome (a wrong final state stops the process) and
/// stops the system. Both harnesses use trials the same way: the timings
/// executable times ``run`` with a `ContinuousClock`, the package-benchmark
/// suite brackets it with `startMeasurement()` and `stopMeasurement()`.
public struct Trial: Sendable {
  public let run: @Sendable () async -> Void
  public let finish: @Sendable () async -> Void

  public init(run: @escaping @Sendable () async -> Void, finish: @escaping @Sendable () async -> Void) {
    self.run = run
    self.finish = finish
  }

  /// Runs the trial and returns how long ``run`` took.
  public func timed() async -> Duration {
    let clock = ContinuousClock()
    let start = clock.now
    await run()
    let elapsed = start.duration(to: clock.now)
    await finish()
    return elapsed
  }
}

/// A workload that the timings executable measures per operation (an event
/// or a round trip) and compares with W0.
public struct Workload: Sendable {
  /// Its id in the RESULT lines: `W0`, `W1`, ...
  public let id: String
  /// What one run does, in a few words.
  public let summary: String
  /// How many operations (events or round trips) one run performs.
  public let operations: Int
  /// How many measured runs the timings executable takes the median of.
  public let runs: Int
  /// Prepares one run.
  public let makeTrial: @Sendable () -> Trial

  public init(
    id: String, summary: String, operations: Int, runs: Int, makeTrial: @escaping @Sendable () -> Trial
  ) {
    self.id = id
    self.summary = summary
    self.operations = operations
    self.runs = runs
    self.makeTrial = makeTrial
  }
}

/// Holds a value made inside a trial's ``Trial/run`` for its
/// ``Trial/finish``, which runs after it, never at the same time.
final class Slot<Value: Sendable>: @unchecked Sendable {
  // Sendable: written by `run`, then read by `finish`, which the harness
  // calls one after the other.
  var value: Value?
}

extension System {
  /// Waits, without sleeping, until the system's state satisfies `done`:
  /// at once if it does already, otherwise by observing its states. The
  /// observer costs the loop one call of `done` per state, and wakes the
  /// waiting task once.
  func waitUntil(_ done: @escaping @Sendable (State) -> Bool) async {
    if done(state) { return }
    let (reached, signal) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    let observation = observe { state in
      if done(state) { signal.yield() }
    }
    for await _ in reached { break }
    observation.cancel()
  }
}

/// Stops the process when a workload ended in a wrong state: a figure for a
/// run that lost or duplicated events would be worthless.
func check(_ condition: Bool, _ message: @autoclosure () -> String) {
  if !condition { fatalError("benchmark check failed: \(message())") }
}
