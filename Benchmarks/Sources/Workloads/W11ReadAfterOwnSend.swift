import FeedbackLoop

/// W11own (red team, issue 17): one thread sends an event to an idle system
/// (reduced synchronously, on this thread), then reads its state 16 times;
/// no other thread touches the system, so there is no cache line to fight
/// for. `fl_remember_read` sees the sequence moved since this thread's last
/// read and paces the reads for the next 256 of them. W11ownother does the
/// same work but reads a second, idle system: the ratio is the pacing. A UI
/// reading a main-actor system's state between events has this shape.
public enum ReadAfterOwnSend {
  public static let rounds = 50_000
  public static let readsPerRound = 16

  public static let workload = Workload(
    id: "W11own", summary: "a send, then 16 reads of the same system's state, on one thread (per read)",
    operations: rounds * readsPerRound, runs: 7, makeTrial: { trial(readOther: false) })

  public static let other = Workload(
    id: "W11ownother", summary: "W11own reading another, idle system (per read)",
    operations: rounds * readsPerRound, runs: 7, makeTrial: { trial(readOther: true) })

  static func trial(readOther: Bool) -> Trial {
    let system = System(initial: 0, reduceReturning: Counter.reduce)
    let idle = System(initial: 0, reduceReturning: Counter.reduce)
    let sum = Tally()
    let thread = GatedThreads(1) { _ in
      var total = 0
      for _ in 0..<rounds {
        system.send(.increment)
        for _ in 0..<readsPerRound { total &+= readOther ? idle.state : system.state }
      }
      sum.add(total)
    }
    return Trial(
      run: {
        thread.start()
        thread.join()
      },
      finish: {
        _ = opaque(sum.value)
        check(system.state == rounds, "W11own ended at \(system.state)")
        system.stop()
        idle.stop()
      })
  }
}
