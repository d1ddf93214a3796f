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
  public static let references: [Workload] =
    [
      TaskChain.workload, LockPairs.workload, DeclaredPingPong.workload, ManyFeedbacks.plain,
      KeyedChurn.foldWorkload(keys: 1_000), KeyedChurn.foldWorkload(keys: 100), KeyedChurn.foldWorkload(keys: 10_000),
      KeyedChurn.treeWorkload(keys: 1_000), KeyedChurn.treeWorkload(keys: 100),
      KeyedChurn.setWorkload(keys: 1_000), KeyedChurn.setWorkload(keys: 100),
      KeyedChurnByID.workload(ids: 1_000), KeyedChurnByID.workload(ids: 100), KeyedChurnByID.plainWorkload,
      Statechart3Deep.workload, Statechart3Deep.flatWorkload,
      CycleRouter.workload, CycleRouter.skipWorkload(passiveDrivers: 0), CycleRouter.skipWorkload(passiveDrivers: 3),
      CycleRouter.skipWorkload(passiveDrivers: 30), CycleSkipBaselines.comparison,
      CycleSkipBaselines.filterAndComparison,
      CycleAnimation.workload, CycleAnimation.longWorkload,
      Composition.workload(children: 1_000), Composition.workload(children: 100),
      Composition.workload(children: 10_000), Composition.single,
      Composition.workload(children: 1_000, throughCase: true),
      Composition.deep(levels: 1), Composition.deep(levels: 5), Composition.deep(levels: 10),
      Composition.deepThroughCase(levels: 1), Composition.deepThroughCase(levels: 5),
      Composition.deepThroughCase(levels: 10), Composition.mixedLevels, Composition.mixedLevelsByID,
    ] + Composition.byIDKinds + [
      RecordedInputThroughput.emptyMonitor, RecordedInputThroughput.inMemory, RecordedInputThroughput.toFile,
      MetricsInputThroughput.noBackend, MetricsInputThroughput.inMemory, MetricsInputThroughput.prometheus,
      TracedInputThroughput.noContext, TracedInputThroughput.withContext,
    ]

  /// The UI store on the main actor (W12 to W14, and W12 through scoped
  /// stores), each beside what an app
  /// writes without a store. Their trials must be made on the main actor, so
  /// only the timings executable (whose top-level code runs there) runs them.
  public static let store: [Workload] = [
    StoreSend.workload, StoreSend.plain, StoreTracked.workload, StoreTracked.plain, StoreFields.workload,
    ScopedStoreSend.workload(depth: 1), ScopedStoreSend.workload(depth: 5), ScopedStoreSend.workload(depth: 10),
    ScopedStoreSend.nestedRootWorkload, ScopedStoreSend.readingWorkload(depth: 0),
    ScopedStoreSend.readingWorkload(depth: 10),
  ]

  /// Many threads at once (issue 17), each beside its baseline: W9 with
  /// W9mutex, W9actor and W9lock, W10 with W10alone, W11 with the lock pair.
  public static let threads: [Workload] = [
    ManySenders.workload, ManySenders.mutexFold, ManySenders.actorFold, ManySenders.lockFold,
    ReadWhileSending.workload, ReadWhileSending.alone, ReadWhileSending.reads,
    ReadWhileSending.withReference, ReadWhileSending.withReferenceAlone, ReadWhileSending.readsWithReference,
    IdleRead.workload,
    AlternatingReader.workload, PeerReadingObserver.workload, PeerReadingObserver.idlePeer,
    ReadAfterOwnSend.workload, ReadAfterOwnSend.other,
  ]
}
