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
    ManyFeedbacks.thousandFeedbacks,
    KeyedChurn.workload(keys: 1_000),
    KeyedChurn.workload(keys: 100),
    KeyedChurn.workload(keys: 10_000),
  ]

  /// What the workloads are compared with besides W0: the cost of the
  /// platform's own primitives on the same machine, in the same run, and
  /// other ways to write a workload (W2 with the DSL, W3 with closure queries,
  /// W6 over a `TreeSet` and over a `Set`, W6 by id).
  public static let references: [Workload] = [
    TaskChain.workload, LockPairs.workload, DeclaredPingPong.workload, ManyFeedbacks.plain,
    KeyedChurn.foldWorkload(keys: 1_000), KeyedChurn.foldWorkload(keys: 100), KeyedChurn.foldWorkload(keys: 10_000),
    KeyedChurn.treeWorkload(keys: 1_000), KeyedChurn.treeWorkload(keys: 100),
    KeyedChurn.setWorkload(keys: 1_000), KeyedChurn.setWorkload(keys: 100),
    KeyedChurnByID.workload(ids: 1_000), KeyedChurnByID.workload(ids: 100), KeyedChurnByID.plainWorkload,
    RecordedInputThroughput.emptyMonitor, RecordedInputThroughput.inMemory, RecordedInputThroughput.toFile,
  ]
}
