import FeedbackLoop
import FeedbackLoopScenarios
import FeedbackLoopTesting
import Foundation
import Testing

@testable import FeedbackLoopDebugging

/// The recorder's ring, written in place, and the recorder read and fed
/// from several threads at once.
@Suite(.runsLeftoverJobs) struct RecorderRingTests {
  let harness = Harness()

  @Test("G14 a full ring is overwritten in place: the last n moments, each with only its own effects")
  func overwrittenInPlace() {
    let everything = Recorder<PagedSearch.State, PagedSearch.Event>(capacity: 1_000)
    let lastOne = Recorder<PagedSearch.State, PagedSearch.Event>(capacity: 1)
    let system = harness.search(monitor: .combining([everything.monitor, lastOne.monitor]))
    harness.recordTwoPages(system)
    // Two slots: moment 3 reuses moment 1's slot, whose request started and
    // finished; moment 3 has only its own request's start.
    #expect(lastOne.moments == Array(everything.moments.suffix(2)))
    #expect(lastOne.moments.map(\.sequence) == [3, 4])
    #expect(lastOne.moments[0].effects.map(\.kind) == [.started])
    #expect(lastOne.evictedCount == 3)
    system.stop()
    // Closed, the last moment takes the place of the one before.
    #expect(lastOne.moments == Array(everything.moments.suffix(1)))
    #expect(lastOne.moments.first?.stopped == true)
    #expect(lastOne.evictedCount == 4)
    #expect(everything.evictedCount == 0)
  }

  @Test("G14 a ring that wraps many times keeps the last n moments in order")
  func wrapsManyTimes() {
    let recorder = Recorder<Int, Int>(capacity: 7)
    let system = System(initial: 0, reduceReturning: { $0 + $1 }, monitor: recorder.monitor)
    for _ in 0..<100 { system.send(1) }
    // Seven closed moments and the open one.
    #expect(recorder.moments.map(\.sequence) == Array(93...100))
    #expect(recorder.moments.map(\.state) == Array(93...100))
    #expect(recorder.moments.map(\.event) == Array(repeating: 1, count: 8))
    #expect(recorder.evictedCount == 93)
    system.stop()
    #expect(recorder.moments.map(\.sequence) == Array(94...100))
    #expect(recorder.evictedCount == 94)
  }

  @Test("capacity 0 keeps only the open moment, and none once the system stopped")
  func noRing() {
    let recorder = Recorder<Int, Int>(capacity: 0)
    let system = System(initial: 0, reduceReturning: { $0 + $1 }, monitor: recorder.monitor)
    system.send(2)
    system.send(3)
    #expect(recorder.moments.map(\.state) == [5])
    system.stop()
    #expect(recorder.moments.isEmpty)
    #expect(recorder.evictedCount == 0)
  }

  @Test("G2 G14 eight threads send, the buffer refuses some on their threads, a ninth reads: every event accounted for")
  func sendersRefusalsAndReaders() async {
    let recorder = Recorder<Int, Int>(capacity: 100_000)
    let system = System(
      initial: 0, reduceReturning: { $0 + $1 }, environment: SystemEnvironment(eventBuffer: .dropNewest(limit: 4)),
      monitor: recorder.monitor)
    let reading = Reading()
    let reader = Thread {
      // Read the whole time the senders run: each read is in order, without gaps.
      while !reading.isDone {
        let sequences = recorder.moments.map(\.sequence)
        if sequences != Array(0..<UInt64(sequences.count)) { reading.fail() }
      }
    }
    reader.start()
    // The senders are threads too: the reader spins until they are done,
    // and senders on the concurrency pool would keep it spinning for as
    // long as other tests hold the pool.
    await Self.onThreads(8) { _ in
      for _ in 0..<500 { system.send(1) }
    }
    reading.finish()
    let moments = recorder.moments
    let reduced = moments.count - 1
    let refused = moments.flatMap(\.discarded)
    #expect(!reading.failed)
    #expect(reduced + refused.count == 4_000)
    #expect(moments.last?.state == reduced)
    #expect(refused.allSatisfy { $0.reason == "bufferFull" })
    system.stop()
  }

  @Test("a consumer that catches up while four threads send sees every reduction exactly once")
  func catchingUpUnderFourSenders() async {
    let recorder = Recorder<Int, Int>(capacity: 100_000)
    let system = System(initial: 0, reduceReturning: { $0 + $1 }, monitor: recorder.monitor)
    let seen = InspectionTests.Lines()
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<4 {
        group.addTask { for _ in 0..<1_000 { system.send(1) } }
      }
      group.addTask {
        recorder.stream.add(
          catchingUp: { for moment in recorder.moments { seen.append("\(moment.state)") } },
          { inspection in
            if case .reduced(_, _, let state, _) = inspection.activity { seen.append("\(state)") }
          })
      }
    }
    #expect(system.state == 4_000)
    #expect(seen.all == (0...4_000).map { "\($0)" })
    system.stop()
  }

  @Test("G9 G14 the loop writes the ring without a lock: two readers, refusals and a stop from other threads")
  func loopWritesWhileOthersReadRefuseAndStop() async {
    // Each state is a heap string: a moment read while the loop overwrites
    // it would be torn, and the sanitizers see it.
    let recorder = Recorder<String, Int>(capacity: 64)
    let system = System(
      initial: Self.label(0), reduceReturning: { state, amount in Self.label(Self.count(in: state) + amount) },
      environment: SystemEnvironment(eventBuffer: .dropNewest(limit: 4)), monitor: recorder.monitor)
    let reading = Reading()
    let readers = (0..<2).map { _ in
      Thread {
        while !reading.isDone {
          let moments = recorder.moments
          let sequences = moments.map(\.sequence)
          let inOrder = sequences == Array((sequences.first ?? 0)..<(sequences.first ?? 0) + UInt64(sequences.count))
          // Each event adds 1: a moment's state is its number.
          let intact = moments.allSatisfy { $0.state == Self.label(Int($0.sequence)) }
          if !inOrder || !intact || moments.count > 65 { reading.fail() }
          _ = recorder.evictedCount
        }
      }
    }
    for reader in readers { reader.start() }
    // Threads, not tasks: the readers spin until the senders are done (see
    // sendersRefusalsAndReaders).
    await Self.onThreads(4) { sender in
      for index in 0..<500 {
        system.send(1)
        // Stopped by one sender midway: the rest are refused as stopped.
        if sender == 0, index == 250 { system.stop() }
      }
    }
    reading.finish()
    let moments = recorder.moments
    let discarded = moments.flatMap(\.discarded)
    let last = moments.last?.sequence ?? 0
    #expect(!reading.failed)
    #expect(moments.last?.stopped == true)
    #expect(moments.count == min(64, Int(last) + 1))
    // Every moment kept or counted as evicted.
    #expect(recorder.evictedCount == last + 1 - UInt64(moments.count))
    // The refusals kept: the buffer was full, or the system had stopped.
    #expect(discarded.allSatisfy { $0.reason == "bufferFull" || $0.reason == "systemStopped" })
    #expect(discarded.contains { $0.reason == "systemStopped" })
    #expect(moments.allSatisfy { $0.state == Self.label(Int($0.sequence)) })
  }

  @Test("G14 one recorder given to two systems, each sent to from its own thread: every moment kept, none torn")
  func oneRecorderTwoSystems() async {
    // Misuse, but a monitor is a value and can be passed twice: from the
    // second start on, both loops take the recorder's lock.
    let recorder = Recorder<String, Int>(capacity: 10_000)
    let systems = (0..<2).map { _ in
      System(
        initial: Self.label(0), reduceReturning: { state, amount in Self.label(Self.count(in: state) + amount) },
        monitor: recorder.monitor)
    }
    await withTaskGroup(of: Void.self) { group in
      for system in systems {
        group.addTask { for _ in 0..<2_000 { system.send(1) } }
      }
    }
    let moments = recorder.moments
    // Two starts and 4,000 reductions, numbered once each, in order.
    #expect(moments.count == 4_002)
    #expect(moments.map(\.sequence) == Array(0..<4_002))
    #expect(moments.filter { $0.event == nil }.count == 2)
    #expect(moments.allSatisfy { (0...2_000).contains(Self.count(in: $0.state)) })
    for system in systems { system.stop() }
  }

  @Test("G14 activities handed to the stream's receive from another thread while the loop records: none lost")
  func streamReceiveFromAnotherThread() async {
    let recorder = Recorder<Int, Int>(capacity: 10_000)
    let system = System(initial: 0, reduceReturning: { $0 + $1 }, monitor: recorder.monitor)
    await withTaskGroup(of: Void.self) { group in
      group.addTask { for _ in 0..<2_000 { system.send(1) } }
      group.addTask {
        for _ in 0..<500 { recorder.stream.report(.eventDiscarded(-1, reason: .bufferFull)) }
      }
    }
    let moments = recorder.moments
    #expect(moments.count == 2_001)
    #expect(moments.last?.state == 2_000)
    // Each refusal lands in the moment open when it came.
    #expect(moments.flatMap(\.discarded).count == 500)
    system.stop()
  }

  static func label(_ count: Int) -> String { "a heap-allocated count of \(count)" }
  static func count(in label: String) -> Int { Int(label.split(separator: " ").last ?? "") ?? -1 }

  /// Runs `body(index)` on `count` new threads (not the concurrency
  /// pool's) and returns once all have ended, suspending the calling task
  /// meanwhile: no thread of the pool waits for them.
  static func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) async {
    let left = Locked(count)
    await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
      for index in 0..<count {
        Thread {
          body(index)
          if left.withLock({ left in
            left -= 1
            return left == 0
          }) {
            finished.resume()
          }
        }.start()
      }
    }
  }

  /// The reader thread's flags.
  final class Reading: @unchecked Sendable {
    // Sendable: both flags are only touched under `lock`.
    private let lock = NSLock()
    private var done = false
    private var failure = false
    var isDone: Bool { lock.withLock { done } }
    var failed: Bool { lock.withLock { failure } }
    func finish() { lock.withLock { done = true } }
    func fail() { lock.withLock { failure = true } }
  }
}
