#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Trial {
  /// Runs the trial and returns the processor time the process spent in
  /// ``run`` (`CLOCK_PROCESS_CPUTIME_ID`), instead of the time that passed.
  ///
  /// On a machine that other processes load, a run is descheduled for a
  /// share of its wall-clock time that changes from run to run; its
  /// processor time does not include that (it still includes what the
  /// others cost it in caches). The timings executable uses it with
  /// `--cpu-time`.
  public func timedOnProcessor() async -> Duration {
    let start = processorTime()
    await run()
    let elapsed = processorTime() - start
    await finish()
    return elapsed
  }
}

/// The processor time this process has used, on all its threads.
func processorTime() -> Duration {
  var now = timespec()
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
  return .seconds(now.tv_sec) + .nanoseconds(now.tv_nsec)
}
