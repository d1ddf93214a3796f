/// Every workload measured per operation, in the order they are reported.
/// W4 (memory) and W5 (scale) are measured apart: see ``IdleSystems`` and
/// ``Scale``.
public enum Workloads {
  public static let timed: [Workload] = [
    RawFold.workload,
    InputThroughput.workload,
    PingPong.synchronous,
    PingPong.asynchronous,
    ManyFeedbacks.workload,
    KeyedChurn.workload(keys: 1_000),
    KeyedChurn.workload(keys: 100),
  ]
}
