import FeedbackLoop
import Foundation
import Testing

extension Reliability {
  /// G14 under load: the queueing policy chosen in the API holds for slow
  /// observers and a busy loop, and memory stays bounded where it is bounded.
  @Suite("Backpressure")
  struct BackpressureTests {
    enum Event: Sendable {
      case hold
      case from(sender: Int, number: Int)
    }

    /// Per sender: the first and last numbers reduced, and whether they came
    /// in a contiguous run.
    struct Runs: Sendable {
      var first: [Int?]
      var last: [Int?]
      var gaps = 0
      var reduced = 0
      var holding = false

      init(senders: Int) {
        first = Array(repeating: nil, count: senders)
        last = Array(repeating: nil, count: senders)
      }

      static func reduce(_ runs: inout Runs, _ event: Event) {
        switch event {
        case .hold:
          runs.holding = true
        case .from(let sender, let number):
          runs.holding = false
          runs.reduced += 1
          if let last = runs.last[sender], number != last + 1 { runs.gaps += 1 }
          if runs.first[sender] == nil { runs.first[sender] = number }
          runs.last[sender] = number
        }
      }

      func kept(by sender: Int) -> Int {
        guard let first = first[sender], let last = last[sender] else { return 0 }
        return last - first + 1
      }
    }

    /// The senders of ``flood(policy:count:)``: 8 threads and 8 tasks.
    static let senders = 16

    /// Holds the loop in an observer while 8 threads and 8 tasks send `count` events
    /// each, then lets it go; returns the final tally and what the monitor
    /// reported discarded.
    static func flood(policy: EventBufferPolicy, count: Int) async -> (
      runs: Runs, dropped: Int, reasons: Set<DiscardKind>
    ) {
      let counts = ActivityCounts<Runs, Event>()
      let system = System(
        initial: Runs(senders: senders), reduce: Runs.reduce,
        environment: SystemEnvironment(eventBuffer: policy), monitor: counts.monitor)
      let entered = Gate()
      let release = Gate()
      let observation = system.observe { runs in
        if runs.holding {  // the loop waits here: every send meanwhile is queued or dropped
          entered.open()
          release.waitBlocking()
        }
      }
      let drainer = Task.detached {
        await onThreads(1) { _ in system.send(.hold) }
      }
      await entered.wait()
      let tasks = (8..<16).map { sender in
        Task.detached {
          for number in 0..<count {
            system.send(.from(sender: sender, number: number))
            if number % 1_000 == 999 { await Task.yield() }
          }
        }
      }
      await onThreads(8) { sender in
        for number in 0..<count { system.send(.from(sender: sender, number: number)) }
      }
      for task in tasks { await task.value }
      release.open()
      await drainer.value
      observation.cancel()
      let reasons = Set(counts.current.discarded.keys)
      return (system.state, counts.discardedTotal, reasons)
    }

    @Test(
      "G14 dropNewest under 8 threads and 8 tasks x 100,000 events with the loop held: the first `limit` are kept, the rest reported",
      .timeLimit(.minutes(5)))
    func dropNewestUnderLoad() async {
      let count = Scale.eventsPerSender
      let limit = 1_000
      let (runs, dropped, reasons) = await Self.flood(policy: .dropNewest(limit: limit), count: count)
      #expect(runs.reduced == limit)
      #expect(dropped == Self.senders * count - limit)
      #expect(reasons == [.bufferFull])
      #expect(runs.gaps == 0)
      // Dropping the newest keeps a prefix of each sender's events.
      #expect((0..<Self.senders).allSatisfy { runs.first[$0] == nil || runs.first[$0] == 0 })
      #expect((0..<Self.senders).map(runs.kept(by:)).reduce(0, +) == limit)
      reportFigure(
        "G14 dropNewest(limit: \(limit)): \(Self.senders * count) events sent to a held loop, \(runs.reduced) reduced, "
          + "\(dropped) dropped and reported as bufferFull, 0 unaccounted")
    }

    @Test(
      "G14 dropOldest under 8 threads and 8 tasks x 100,000 events with the loop held: the last `limit` are kept, the rest reported",
      .timeLimit(.minutes(5)))
    func dropOldestUnderLoad() async {
      let count = Scale.eventsPerSender
      let limit = 1_000
      let (runs, dropped, reasons) = await Self.flood(policy: .dropOldest(limit: limit), count: count)
      #expect(runs.reduced == limit)
      #expect(dropped == Self.senders * count - limit)
      #expect(reasons == [.bufferFull])
      #expect(runs.gaps == 0)
      // Dropping the oldest keeps a suffix of each sender's events.
      #expect((0..<Self.senders).allSatisfy { runs.last[$0] == nil || runs.last[$0] == count - 1 })
      #expect((0..<Self.senders).map(runs.kept(by:)).reduce(0, +) == limit)
      reportFigure(
        "G14 dropOldest(limit: \(limit)): \(Self.senders * count) events sent to a held loop, \(runs.reduced) reduced, "
          + "\(dropped) dropped and reported as bufferFull, 0 unaccounted")
    }

    @Test(
      "G14 unbounded buffer: 8 threads and 8 tasks x 100,000 events sent while an observer holds the loop are all kept and reduced",
      .timeLimit(.minutes(5)))
    func unboundedKeepsEverything() async {
      let count = Scale.eventsPerSender
      let (runs, dropped, _) = await Self.flood(policy: .unbounded, count: count)
      #expect(runs.reduced == Self.senders * count)
      #expect(dropped == 0)
      #expect(runs.gaps == 0)
      #expect(runs.last == Array(repeating: count - 1, count: Self.senders))
      reportFigure(
        "G14 unbounded: \(Self.senders * count) events sent to a held loop, \(runs.reduced) reduced, 0 dropped")
    }

    @Test("G14 a reader of states(buffering: .newest(3)) that lags thousands of states behind sees the newest three")
    func newestStatesForALaggingReader() async {
      let system = System(initial: 0, reduceReturning: { (count: Int, _: Event) in count + 1 })
      let states = system.states(buffering: .newest(3))
      var reader = states.makeAsyncIterator()
      #expect(await reader.next() == 0)
      let rounds = 100
      let batch = Scale.pick(1_000, sanitized: 100)
      var seen = 1
      for round in 1...rounds {
        for _ in 0..<batch { system.send(.hold) }  // the loop runs ahead of the reader
        let end = round * batch
        let read = [await reader.next(), await reader.next(), await reader.next()]
        #expect(read == [end - 2, end - 1, end])
        seen += 3
      }
      system.stop()
      #expect(await reader.next() == nil)
      reportFigure(
        "G14 newest(3): \(rounds * batch) states produced for a lagging reader, \(seen) delivered (the newest 3 "
          + "of each batch), buffer never above 3")
    }

    struct Big: Sendable {
      var version = 0
      var payload = [UInt8](repeating: 0, count: 16 * 1_024)
    }

    @Test(
      "G14 a reader that never reads 20,000 distinct 16 KiB states, under .newest(4) and .oldest(4): memory stays bounded"
    )
    func boundedStateBuffersKeepMemoryBounded() async {
      let count = Scale.pick(20_000, sanitized: 2_000)
      let system = System(
        initial: Big(),
        reduce: { (big: inout Big, _: Event) in
          big.version += 1
          big.payload[big.version % big.payload.count] &+= 1  // every state is a distinct 16 KiB buffer
        })
      let newest = system.states(buffering: .newest(4))
      let oldest = system.states(buffering: .oldest(4))
      let before = ResidentMemory.bytes()
      for _ in 0..<count { system.send(.hold) }
      let after = ResidentMemory.bytes()
      system.stop()
      var newestVersions: [Int] = []
      for await big in newest { newestVersions.append(big.version) }
      var oldestVersions: [Int] = []
      for await big in oldest { oldestVersions.append(big.version) }
      #expect(newestVersions == Array((count - 3)...count))
      #expect(oldestVersions == [0, 1, 2, 3])
      let unboundedCost = count * 2 * 16 * 1_024
      if let before, let after {
        // Had either buffer kept every state: 2 x 20,000 x 16 KiB = 625 MiB.
        // (A sanitizer's allocator keeps freed memory in quarantine: there
        // the figure is only reported.)
        if !Scale.underSanitizer { #expect(after - before < 64 * 1_048_576) }
        reportFigure(
          "G14 newest(4)/oldest(4): \(count) distinct 16 KiB states never read; resident memory grew "
            + "\(ResidentMemory.megabytes(after - before)) (buffering all would hold "
            + "\(ResidentMemory.megabytes(unboundedCost)))")
      }
    }
  }
}
