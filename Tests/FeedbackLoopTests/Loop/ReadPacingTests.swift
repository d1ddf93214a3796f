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

  @Test("G15 a thread that reads an idle system never pauses")
  func idleReadsDoNotPause() {
    let answers = onFreshThread { system, _ in
      (0..<1_000).map { _ in fl_remember_read(system, 6) }
    }
    #expect(answers.count == 1_000)
    #expect(!answers.contains(true))
  }

  @Test("G15 a thread that reads a busy system between reads of an idle one pauses after each read of the busy one")
  func alternatingBetweenABusyAndAnIdleSystemPaces() {
    let answers = onFreshThread { busy, idle in
      (0..<100).flatMap { round in
        [fl_remember_read(busy, UInt64(round * 2)), fl_remember_read(idle, 6)]
      }
    }
    let busyAnswers = stride(from: 0, to: answers.count, by: 2).map { answers[$0] }
    let idleAnswers = stride(from: 1, to: answers.count, by: 2).map { answers[$0] }
    // The busy system's first read is a first read; every later one finds it
    // reduced since.
    #expect(busyAnswers == [false] + Array(repeating: true, count: 99))
    #expect(!idleAnswers.contains(true))
  }

  @Test("G15 a thread that reads a busy system between reads of as many other systems as it remembers is paced")
  func readsOfSeveralSystemsInTurnArePaced() {
    let answers = onFreshThread { _, _ in
      let systems = (1...Int(FL_READ_MEMORY)).map { UnsafeRawPointer(bitPattern: $0 &* 4_096)! }
      return (0..<50).flatMap { round in systems.map { fl_remember_read($0, UInt64(round * 2)) } }
    }
    #expect(answers.prefix(Int(FL_READ_MEMORY)) == ArraySlice(repeating: false, count: Int(FL_READ_MEMORY)))
    #expect(!answers.dropFirst(Int(FL_READ_MEMORY)).contains(false))
  }

  @Test("G15 a thread that reads more systems in turn than it remembers is not paced (the documented limit)")
  func readsOfMoreSystemsThanRememberedAreNotPaced() {
    let answers = onFreshThread { _, _ in
      let systems = (1...Int(FL_READ_MEMORY) + 1).map { UnsafeRawPointer(bitPattern: $0 &* 4_096)! }
      return (0..<50).flatMap { round in systems.map { fl_remember_read($0, UInt64(round * 2)) } }
    }
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
    // A larger state leaves the guard's line to the watermarks.
    #expect(SystemCore<Large, Int>.Layout.watermarks(feedbacks: 2) < SystemCore<Large, Int>.Layout.inbox)
    // Two feedbacks' watermarks fit after an `Int` state in the guard's line.
    #expect(SystemCore<Int, Int>.Layout.watermarksInGuardLine(feedbacks: 2))
    #expect(!SystemCore<Int, Int>.Layout.watermarksInGuardLine(feedbacks: 3))
    #expect(SystemCore<Int, Int>.Layout.runtimesInWordLine(feedbacks: 2) == (MemoryLayout<fl_lock_t>.size <= 40))
  }

  @Test("the parts of the control's allocation never overlap, whatever the state and the number of feedbacks")
  func controlPartsNeverOverlap() {
    func check<State, Event>(_: SystemCore<State, Event>.Type, feedbacks: Int) {
      typealias Layout = SystemCore<State, Event>.Layout
      // The spare bytes of the word's line hold the runtimes, and those of
      // the guard's line the state and the watermarks, if they fit.
      let lock = MemoryLayout<fl_loop_control>.offset(of: \.lock)! + MemoryLayout<fl_lock_t>.size
      var parts: [(name: String, start: Int, end: Int)] = [
        ("word and lock", 0, lock),
        ("guard", MemoryLayout<fl_loop_control>.offset(of: \.reducing)!, Layout.guardSpare),
        ("inbox", Layout.inbox, Layout.inbox + MemoryLayout<EventInbox<State, Event>>.size),
        ("state", Layout.state, Layout.state + MemoryLayout<State>.size),
        (
          "watermarks", Layout.watermarks(feedbacks: feedbacks),
          Layout.watermarks(feedbacks: feedbacks) + 8 * max(feedbacks, 1)
        ),
        ("runtimes", Layout.runtimes(feedbacks: feedbacks), Layout.runtimes(feedbacks: feedbacks) + 8 * feedbacks),
      ]
      parts.sort { $0.start < $1.start }
      for (first, second) in zip(parts, parts.dropFirst()) {
        #expect(
          first.end <= second.start, "\(State.self), \(feedbacks) feedbacks: \(first.name) overlaps \(second.name)")
      }
      #expect(parts.last!.end <= Layout.byteCount(feedbacks: feedbacks))
      #expect(Layout.watermarks(feedbacks: feedbacks) % 8 == 0 && Layout.runtimes(feedbacks: feedbacks) % 8 == 0)
    }
    for feedbacks in [0, 1, 2, 3, 4, 100] {
      check(SystemCore<Int, Int>.self, feedbacks: feedbacks)
      check(SystemCore<ThreeNumbers, Int>.self, feedbacks: feedbacks)
      check(SystemCore<FourNumbers, Int>.self, feedbacks: feedbacks)
      check(SystemCore<Bool, Int>.self, feedbacks: feedbacks)
      check(SystemCore<String, Int>.self, feedbacks: feedbacks)
      check(SystemCore<[Int], Int>.self, feedbacks: feedbacks)
    }
  }

  @Test("systems with one to five feedbacks, their watermarks in the guard's line or not, run, cancel and stop")
  func systemsWithSeveralFeedbacksRunAndStop() {
    for count in 0...5 {
      let system = System<Int, Int>(
        initial: 0, reduceReturning: +,
        feedbacks: (0..<count).map { index in
          Feedback.query({ $0 > 0 && $0 < 3 ? $0 + index : nil }) { _ in .none }
        })
      for _ in 0..<4 { system.send(1) }
      #expect(system.state == 4)
      system.stop()
      #expect(system.isStopped)
    }
  }

  @Test("G15 a system whose state shares the guard's line reduces and reads as any other")
  func aStateInTheGuardLineWorks() {
    let system = System<ThreeNumbers, Int>(
      initial: ThreeNumbers(),
      reduce: { state, number in
        state.a += number
        state.c -= number
      })
    for number in 1...10 { system.send(number) }
    #expect(system.state.a == 55 && system.state.c == -55)
    system.stop()
  }
}
