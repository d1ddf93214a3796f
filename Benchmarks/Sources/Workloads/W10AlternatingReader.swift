import FeedbackLoop

/// W10alt (red team, issue 17): W10, but the reader reads a second, idle
/// system between two reads of the busy one. `fl_remember_read` kept only
/// the last system a thread read, so a reader that alternated was never
/// paced: it loaded the owner's guard line as often as an unpaced W10
/// reader. It now remembers the last four (`FL_READ_MEMORY`).
/// Compare with W10alone and W10 in the same run.
public enum AlternatingReader {
  public static let workload = Workload(
    id: "W10alt",
    summary: "W10 with a reader that reads an idle second system between two reads of the busy one",
    operations: ReadWhileSending.eventCount, runs: 7,
    makeTrial: { trial(idlePeers: 1) })

  static func trial(idlePeers: Int) -> Trial {
    let system = System(initial: 0, reduceReturning: Counter.reduce)
    let peers = (0..<idlePeers).map { _ in System(initial: 0, reduceReturning: Counter.reduce) }
    let done = Flag()
    let reading = Flag()
    let sender = GatedThreads(1, pinnedFrom: 0) { _ in
      while !reading.isRaised {}
      for _ in 0..<ReadWhileSending.eventCount { system.send(.increment) }
      done.raise()
    }
    let reader = GatedThreads(1, pinnedFrom: 1) { _ in
      var sum = 0
      while !done.isRaised {
        sum &+= system.state
        for peer in peers { sum &+= peer.state }
        reading.raise()
      }
      _ = opaque(sum)
    }
    return Trial(
      run: {
        reader.start()
        sender.start()
        sender.join()
      },
      finish: {
        reader.join()
        check(system.state == ReadWhileSending.eventCount, "W10alt ended at \(system.state)")
        system.stop()
        for peer in peers { peer.stop() }
      })
  }
}

/// W10peer (red team, issue 17): one thread sends to a system whose
/// observer reads a peer's state at each event, while another thread sends
/// to the peer. A thread that runs another system's loop must not pause
/// (Guarantees.md): before f33a5c5 the observer paused at each event
/// (W10peer 228 to 657 ns against 25 for W10peeridle, the same with an
/// idle peer). Kept so that the ratio stays watched.
public enum PeerReadingObserver {
  public static let eventCount = 200_000

  public static let workload = Workload(
    id: "W10peer", summary: "200,000 sends to a system whose observer reads a busy peer's state",
    operations: eventCount, runs: 7, makeTrial: { trial(peerBusy: true) })

  public static let idlePeer = Workload(
    id: "W10peeridle", summary: "W10peer with an idle peer", operations: eventCount, runs: 7,
    makeTrial: { trial(peerBusy: false) })

  static func trial(peerBusy: Bool) -> Trial {
    let peer = System(initial: 0, reduceReturning: Counter.reduce)
    let system = System(initial: 0, reduceReturning: Counter.reduce)
    let sum = Tally()
    let observation = system.observe { _ in sum.add(peer.state & 1) }
    let done = Flag()
    let peerSending = Flag()
    let sender = GatedThreads(1, pinnedFrom: 0) { _ in
      while peerBusy && !peerSending.isRaised {}
      for _ in 0..<eventCount { system.send(.increment) }
      done.raise()
    }
    let peerSender = GatedThreads(peerBusy ? 1 : 0, pinnedFrom: 1) { _ in
      while !done.isRaised {
        for _ in 0..<64 { peer.send(.increment) }
        peerSending.raise()
      }
    }
    return Trial(
      run: {
        peerSender.start()
        sender.start()
        sender.join()
      },
      finish: {
        peerSender.join()
        _ = observation
        check(system.state == eventCount, "W10peer ended at \(system.state)")
        system.stop()
        peer.stop()
      })
  }
}
