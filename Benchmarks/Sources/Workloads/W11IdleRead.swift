import FeedbackLoop

/// W11: reads of `state` from a thread that does not own the loop, on an
/// idle system (every read takes the path of a read from another thread).
/// Its floor is the lock-pair reference.
public enum IdleRead {
  public static let readCount = 1_000_000

  public static let workload = Workload(
    id: "W11", summary: "1,000,000 reads of an idle system's state from another thread", operations: readCount,
    runs: 11,
    makeTrial: {
      let system = System(initial: 0, reduceReturning: Counter.reduce)
      system.send(.increment)
      let sum = Tally()
      let reader = GatedThreads(1) { _ in
        var total = 0
        for _ in 0..<readCount { total &+= system.state }
        sum.add(total)
      }
      return Trial(
        run: {
          reader.start()
          reader.join()
        },
        finish: {
          check(sum.value == readCount, "W11 read \(sum.value)")
          system.stop()
        })
    })
}
