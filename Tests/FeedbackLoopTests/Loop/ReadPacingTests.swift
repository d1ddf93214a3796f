import CFeedbackLoopShims
import Dispatch
import Foundation
import Testing

@testable import FeedbackLoop

/// Which reads pause (SystemCore.paceIfPolling): `fl_remember_read` decides
/// from what the calling thread's reads saw before. Pure bookkeeping on the
/// thread's own memory; each test runs on a thread of its own.
@Suite("Read pacing")
struct ReadPacingTests {
  /// Runs `body` on a new thread, whose record of its last read is empty,
  /// with two systems' addresses; returns what `fl_remember_read` answered.
  func onFreshThread(
    _ body: @escaping @Sendable (_ first: UnsafeRawPointer, _ second: UnsafeRawPointer) -> [Bool]
  ) -> [Bool] {
    let answers = Locked<[Bool]>([])
    let finished = DispatchSemaphore(value: 0)
    let thread = Thread {
      let first = UnsafeMutableRawPointer.allocate(byteCount: 8, alignment: 8)
      let second = UnsafeMutableRawPointer.allocate(byteCount: 8, alignment: 8)
      answers.withLock { $0 = body(first, second) }
      first.deallocate()
      second.deallocate()
      finished.signal()
    }
    thread.start()
    finished.wait()
    return answers.withLock { $0 }
  }

  @Test("G15 a thread that polls a system while it reduces pauses after each read")
  func pollingABusySystemPauses() {
    let answers = onFreshThread { system, _ in
      [
        fl_remember_read(system, 2),  // the first read of a system
        fl_remember_read(system, 4),  // it reduced since
        fl_remember_read(system, 8),
        fl_remember_read(system, 8),  // unchanged, but it reduced within the window
      ]
    }
    #expect(answers == [false, true, true, true])
  }

  @Test("G15 a thread that reads an idle system, or other systems in between, never pauses")
  func idleOrAlternatingReadsDoNotPause() {
    let answers = onFreshThread { first, second in
      var answers = (0..<1_000).map { _ in fl_remember_read(first, 6) }
      for round in 0..<100 {
        answers.append(fl_remember_read(second, UInt64(round * 2)))
        answers.append(fl_remember_read(first, UInt64(round * 2)))
      }
      return answers
    }
    #expect(answers.count == 1_200)
    #expect(!answers.contains(true))
  }

  @Test("G15 once a polled system stops reducing, its reader stops pausing within the window")
  func pausesEndWhenTheSystemGoesIdle() {
    let answers = onFreshThread { system, _ in
      [fl_remember_read(system, 2), fl_remember_read(system, 4)]
        + (0..<1_000).map { _ in fl_remember_read(system, 4) }
    }
    #expect(answers.prefix(2) == [false, true])
    #expect(answers.dropFirst(2).filter { $0 }.count == Int(FL_POLLING_WINDOW))
    #expect(answers.last == false)
  }
}

/// Where a system keeps its state: in the reduction guard's line when it
/// fits, so that an optimistic read loads one line.
@Suite("State placement")
struct StatePlacementTests {
  struct ThreeNumbers { var a = 0, b = 0, c = 0 }
  struct FourNumbers { var a = 0, b = 0, c = 0, d = 0 }

  @Test(
    "G15 a state that fits the guard line's spare bytes (24 on a 64-byte line) shares it; a larger one follows the inbox"
  )
  func smallStatesShareTheGuardLine() {
    #expect(SystemCore<Int, Int>.Layout.stateInGuardLine)
    #expect(SystemCore<ThreeNumbers, Int>.Layout.stateInGuardLine)
    // 24 spare bytes on a 64-byte line, 88 on a 128-byte one (Apple silicon).
    #expect(SystemCore<FourNumbers, Int>.Layout.stateInGuardLine == (FL_CACHE_LINE > 64))
    #expect(!SystemCore<CacheLineLayoutTests.LargeState, Int>.Layout.stateInGuardLine)
    #expect(SystemCore<ThreeNumbers, Int>.Layout.state < SystemCore<ThreeNumbers, Int>.Layout.inbox)
    typealias Large = CacheLineLayoutTests.LargeState
    #expect(SystemCore<Large, Int>.Layout.state >= SystemCore<Large, Int>.Layout.afterInbox)
    // The watermarks never overlap the state.
    #expect(
      SystemCore<Large, Int>.Layout.watermarks
        >= SystemCore<Large, Int>.Layout.state + MemoryLayout<Large>.size)
  }

  @Test("G15 a system whose state shares the guard's line reduces and reads as any other")
  func aStateInTheGuardLineWorks() {
    let system = System<ThreeNumbers, Int>(
      initial: ThreeNumbers(),
      reduceInPlace: { state, number in
        state.a += number
        state.c -= number
      })
    for number in 1...10 { system.send(number) }
    #expect(system.state.a == 55 && system.state.c == -55)
    system.stop()
  }
}
