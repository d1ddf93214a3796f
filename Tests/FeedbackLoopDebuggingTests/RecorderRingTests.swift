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
    let system = System(initial: 0, reduce: { $0 + $1 }, monitor: recorder.monitor)
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
    let system = System(initial: 0, reduce: { $0 + $1 }, monitor: recorder.monitor)
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
      initial: 0, reduce: { $0 + $1 }, environment: SystemEnvironment(eventBuffer: .dropNewest(limit: 4)),
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
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<8 {
        group.addTask { for _ in 0..<500 { system.send(1) } }
      }
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
    let system = System(initial: 0, reduce: { $0 + $1 }, monitor: recorder.monitor)
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
