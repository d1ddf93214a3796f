import FeedbackLoop

/// W10: one thread reads `state` in a tight loop while another sends. Two
/// figures, each from a trial of its own: W10, the sender's time per event
/// while the reader reads (beside W10alone, the same sender with no
/// reader), and W10reads, the reader's time per read while the sender sends.
public enum ReadWhileSending {
  public static let eventCount = 1_000_000
  public static let readCount = 1_000_000

  /// The sender's 1,000,000 events, with a reader reading until they are in.
  public static let workload = Workload(
    id: "W10", summary: "1,000,000 sends from one thread while another reads state in a loop",
    operations: eventCount, runs: 7,
    makeTrial: { senderTrial(withReader: true) })

  /// The same sender, alone.
  public static let alone = Workload(
    id: "W10alone", summary: "1,000,000 sends from one thread, no reader", operations: eventCount, runs: 7,
    makeTrial: { senderTrial(withReader: false) })

  /// The reader's 1,000,000 reads, with a sender sending until they are done.
  public static let reads = Workload(
    id: "W10reads", summary: "1,000,000 reads of state from one thread while another sends",
    operations: readCount, runs: 7,
    makeTrial: { readerTrial(state: Int.self) })

  /// W10reads with a state that holds a reference.
  public static let readsWithReference = Workload(
    id: "W10refreads", summary: "W10reads with a state holding a reference", operations: readCount, runs: 7,
    makeTrial: { readerTrial(state: NamedCount.self) })

  static func readerTrial<State: CountingState>(state: State.Type) -> Trial {
    let system = System(initial: State(), reduceReturning: State.reduce)
    let done = Flag()
    let sent = Tally()
    let sending = Flag()
    let reader = GatedThreads(1, pinnedFrom: 1) { _ in
      // Reads while the sender sends: a reader that ran before the sender
      // was scheduled measured reads of an idle system (some trials sent
      // nothing at all).
      while !sending.isRaised {}
      var sum = 0
      for _ in 0..<readCount { sum &+= system.state.count }
      _ = opaque(sum)
      done.raise()
    }
    let sender = GatedThreads(1, pinnedFrom: 0) { _ in
      var count = 0
      while !done.isRaised {
        for _ in 0..<64 { system.send(.increment) }
        count += 64
        sending.raise()
      }
      sent.add(count)
    }
    return Trial(
      run: {
        sender.start()
        reader.start()
        reader.join()
      },
      finish: {
        sender.join()
        check(system.state.count == sent.value, "W10reads ended at \(system.state.count), \(sent.value) sent")
        system.stop()
      })
  }

  /// W10 with a state that holds a reference (a count and a heap string),
  /// which a reader cannot copy optimistically: it gets its copy from the
  /// owner (SystemCore+Reads.swift).
  public static let withReference = Workload(
    id: "W10ref", summary: "W10 with a state holding a reference (count and name)", operations: eventCount,
    runs: 7, makeTrial: { senderTrial(withReader: true, state: NamedCount.self) })

  /// W10ref's sender, alone.
  public static let withReferenceAlone = Workload(
    id: "W10refalone", summary: "W10alone with a state holding a reference", operations: eventCount, runs: 7,
    makeTrial: { senderTrial(withReader: false, state: NamedCount.self) })

  static func senderTrial(withReader: Bool) -> Trial {
    senderTrial(withReader: withReader, state: Int.self)
  }

  static func senderTrial<State: CountingState>(withReader: Bool, state: State.Type) -> Trial {
    let system = System(initial: State(), reduceReturning: State.reduce)
    let done = Flag()
    let reads = Tally()
    let reading = Flag()
    let sender = GatedThreads(1, pinnedFrom: 0) { _ in
      // Sends while the reader reads, as W10reads reads while the sender
      // sends (see there).
      while withReader && !reading.isRaised {}
      for _ in 0..<eventCount { system.send(.increment) }
      done.raise()
    }
    let reader = GatedThreads(withReader ? 1 : 0, pinnedFrom: 1) { _ in
      var count = 0
      var sum = 0
      while !done.isRaised {
        sum &+= system.state.count
        count += 1
        reading.raise()
      }
      _ = opaque(sum)
      reads.add(count)
    }
    return Trial(
      run: {
        reader.start()
        sender.start()
        sender.join()
      },
      finish: {
        reader.join()
        check(system.state.count == eventCount, "W10 ended at \(system.state.count)")
        system.stop()
      })
  }
}

/// A state W10 can count with: `Int` itself, or one holding a reference.
protocol CountingState: Sendable {
  init()
  var count: Int { get }
  static var reduce: @Sendable (Self, CounterEvent) -> Self { get }
}

extension Int: CountingState {
  var count: Int { self }
  static var reduce: @Sendable (Int, CounterEvent) -> Int { Counter.reduce }
}

/// A count beside a name long enough to live on the heap: copying the state
/// retains the name's storage.
struct NamedCount: CountingState {
  var count = 0
  var name = "a name longer than fifteen bytes"

  static var reduce: @Sendable (NamedCount, CounterEvent) -> NamedCount {
    { state, event in
      var next = state
      next.count = Counter.reduce(state.count, event)
      return next
    }
  }
}
