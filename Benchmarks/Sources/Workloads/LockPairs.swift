import CBenchmarkSupport

/// Not one of the workloads, but the floor under a design that takes
/// a lock per event: one uncontended lock and unlock of the platform's lock,
/// on the machine that runs it. FeedbackLoop's loop takes none per event
/// (its control word is one compare-and-swap in, one out); its shared queue,
/// used only when other threads send to a busy system, is under such a lock.
public enum LockPairs {
  public static let pairCount = 1_000_000

  public static let workload = Workload(
    id: "lock-pair", summary: "1,000,000 uncontended lock/unlock pairs (pthread mutex on Linux)",
    operations: pairCount, runs: 11,
    makeTrial: {
      let result = Slot<Int64>()
      return Trial(
        run: { result.value = benchmarks_lock_pairs(Int64(pairCount)) },
        finish: {
          check((result.value ?? 0) >= Int64(pairCount), "lock-pair counted \(String(describing: result.value))")
        }
      )
    })
}
