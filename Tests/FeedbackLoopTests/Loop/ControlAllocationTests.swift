import CFeedbackLoopShims
import Dispatch
import FeedbackLoopTesting
import Foundation
import Testing

@testable import FeedbackLoop

/// The control's allocation holds, besides the control, the inbox, the
/// state, the feedbacks' watermarks and their runtimes, some of them in the
/// spare bytes of the control's two cache lines (`Layout` in SystemCore.swift).
/// These tests make systems of states of every size and alignment, with up
/// to 130 feedbacks of every kind, and check that no part overwrites
/// another (the state's bytes stay whole through effects, cancellations and
/// keyed changes, which write the watermarks) and that stopping or
/// releasing lets every part go. Run them under AddressSanitizer too.
@Suite("The control's allocation: every state and feedback count")
struct ControlAllocationTests {
  static let feedbackCounts = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 63, 64, 65, 100, 130]

  @Test("no part of the control's allocation overlaps another, and each is aligned for its type")
  func partsAreDisjointAndAligned() {
    func check<State: Sendable>(_: State.Type) {
      typealias Layout = SystemCore<State, UInt8>.Layout
      let runtimeStride = MemoryLayout<FeedbackRuntime<State, UInt8>>.stride
      let lockEnd = MemoryLayout<fl_loop_control>.offset(of: \.lock)! + MemoryLayout<fl_lock_t>.size
      let guardStart = MemoryLayout<fl_loop_control>.offset(of: \.reducing)!
      #expect(Layout.alignment % MemoryLayout<State>.alignment == 0)
      #expect(Layout.state % MemoryLayout<State>.alignment == 0, "\(State.self): the state is misaligned")
      for feedbacks in Self.feedbackCounts {
        let watermarks = Layout.watermarks(feedbacks: feedbacks)
        let runtimes = Layout.runtimes(feedbacks: feedbacks)
        var parts: [(name: String, start: Int, end: Int)] = [
          ("word and lock", 0, lockEnd),
          ("guard", guardStart, Layout.guardSpare),
          ("inbox", Layout.inbox, Layout.inbox + MemoryLayout<EventInbox<State, UInt8>>.size),
          ("state", Layout.state, Layout.state + MemoryLayout<State>.size),
          ("watermarks", watermarks, watermarks + 8 * max(feedbacks, 1)),
          ("runtimes", runtimes, runtimes + runtimeStride * feedbacks),
        ]
        parts.removeAll { $0.start == $0.end }
        parts.sort { $0.start < $1.start }
        for (first, second) in zip(parts, parts.dropFirst()) {
          #expect(
            first.end <= second.start, "\(State.self), \(feedbacks) feedbacks: \(first.name) overlaps \(second.name)")
        }
        #expect(parts.last!.end <= Layout.byteCount(feedbacks: feedbacks), "\(State.self), \(feedbacks) feedbacks")
        #expect(watermarks % MemoryLayout<UInt64>.alignment == 0)
        #expect(runtimes % MemoryLayout<FeedbackRuntime<State, UInt8>>.alignment == 0)
        if Layout.runtimesInWordLine(feedbacks: feedbacks) {
          #expect(runtimes >= lockEnd && runtimes + runtimeStride * feedbacks <= guardStart)
        }
        if Layout.watermarksInGuardLine(feedbacks: feedbacks) {
          #expect(watermarks >= Layout.guardSpare && watermarks + 8 * max(feedbacks, 1) <= Layout.inbox)
        }
      }
    }
    check(NoBytes.self)
    check(UInt8.self)
    check(Bytes<15>.self)
    check(Bytes<16>.self)
    check(Bytes<17>.self)
    check(Bytes<23>.self)
    check(Bytes<24>.self)
    check(Bytes<25>.self)
    check(Bytes<63>.self)
    check(Bytes<64>.self)
    check(Bytes<65>.self)
    check(Bytes<127>.self)
    check(Bytes<128>.self)
    check(Bytes<129>.self)
    check(Bytes<4096>.self)
    check(Words<7>.self)
    check(Words<9>.self)
    check(Words<16>.self)
    check(Words<17>.self)
    check(Vector4.self)
    check(Vector16.self)
    check(Vector8Double.self)
    check(Held.self)
    check(Erased.self)
  }

  @Test("systems of every state size and feedback count keep their state whole, and let every feedback go at a stop")
  func everySizeRunsAndStops() {
    for feedbacks in Self.feedbackCounts {
      for ending in Ending.allCases {
        exercise(NoBytes(), feedbacks: feedbacks, ending: ending)
        exercise(UInt8(0), feedbacks: feedbacks, ending: ending)
        exercise(Bytes<15>(filling: 0), feedbacks: feedbacks, ending: ending)
        exercise(Bytes<16>(filling: 0), feedbacks: feedbacks, ending: ending)
        exercise(Bytes<17>(filling: 0), feedbacks: feedbacks, ending: ending)
        exercise(Bytes<24>(filling: 0), feedbacks: feedbacks, ending: ending)
        exercise(Bytes<63>(filling: 0), feedbacks: feedbacks, ending: ending)
        exercise(Bytes<64>(filling: 0), feedbacks: feedbacks, ending: ending)
        exercise(Bytes<65>(filling: 0), feedbacks: feedbacks, ending: ending)
        exercise(Bytes<127>(filling: 0), feedbacks: feedbacks, ending: ending)
        exercise(Bytes<128>(filling: 0), feedbacks: feedbacks, ending: ending)
        exercise(Bytes<129>(filling: 0), feedbacks: feedbacks, ending: ending)
        exercise(Bytes<4096>(filling: 0), feedbacks: feedbacks, ending: ending)
        exercise(Words<7>(filling: 0), feedbacks: feedbacks, ending: ending)
        exercise(Words<9>(filling: 0), feedbacks: feedbacks, ending: ending)
        exercise(Words<16>(filling: 0), feedbacks: feedbacks, ending: ending)
        exercise(Vector4(filling: 0), feedbacks: feedbacks, ending: ending)
        exercise(Vector16(filling: 0), feedbacks: feedbacks, ending: ending)
        exercise(Vector8Double(filling: 0), feedbacks: feedbacks, ending: ending)
      }
    }
  }

  @Test("a state of references, plain or in an existential, is released once with its system, whatever the feedbacks")
  func referencesInTheStateAreReleased() {
    for feedbacks in Self.feedbackCounts {
      for ending in Ending.allCases {
        let tally = Tally()
        exercise(Held(Box(0, tally: tally)), feedbacks: feedbacks, ending: ending)
        #expect(tally.live == 0, "\(feedbacks) feedbacks, \(ending): \(tally.live) boxes leaked")
        exercise(Erased(Box(0, tally: tally)), feedbacks: feedbacks, ending: ending)
        #expect(tally.live == 0, "\(feedbacks) feedbacks, \(ending): \(tally.live) boxes leaked")
        #expect(tally.made > 0)
      }
    }
  }

  @Test("systems made, fed, read, stopped and released on many threads at once keep their states whole")
  func manyThreads() {
    let tally = Tally()
    DispatchQueue.concurrentPerform(iterations: 16) { iteration in
      let feedbacks = Self.feedbackCounts[iteration % Self.feedbackCounts.count]
      let ending = Ending.allCases[iteration % Ending.allCases.count]
      switch iteration % 4 {
      case 0: exercise(Bytes<17>(filling: 0), feedbacks: feedbacks, ending: ending)
      case 1: exercise(Held(Box(0, tally: tally)), feedbacks: feedbacks, ending: ending)
      case 2: exercise(Vector16(filling: 0), feedbacks: feedbacks, ending: ending)
      default: exercise(Bytes<4096>(filling: 0), feedbacks: feedbacks, ending: ending)
      }
    }
    #expect(tally.live == 0)
  }

  @Test(
    "a system fed from one thread and stopped from another reads whole states on a third, and lets its feedbacks go")
  func stopFromAnotherThreadWhileSending() {
    for feedbacks in [0, 2, 3, 7, 65] {
      let tally = Tally()
      var witnesses: [WeakWitness] = []
      let system = System<Held, UInt8>(
        initial: Held(Box(0, tally: tally)), reduce: { $0.refill($1) },
        feedbacks: Self.synchronousFeedbacks(feedbacks, witnesses: &witnesses))
      let torn = Locked(0)
      DispatchQueue.concurrentPerform(iterations: 3) { role in
        switch role {
        case 0:
          for round in 0..<2_000 { system.send(UInt8(truncatingIfNeeded: round)) }
        case 1:
          for _ in 0..<500 { _ = system.state }
          system.stop()
        default:
          for _ in 0..<2_000 where !system.state.isWhole { torn.withLock { $0 += 1 } }
        }
      }
      #expect(system.isStopped)
      #expect(torn.withLock { $0 } == 0)
      #expect(witnesses.allSatisfy { $0.witness == nil }, "\(feedbacks) feedbacks: a feedback outlived the stop")
      _ = consume system
      #expect(tally.live == 0)
    }
  }

  @Test(
    "G9 a main-actor system made off the main actor and stopped or released before its start ran lets everything go"
  )
  @MainActor
  func stopBeforeStart() async {
    for feedbacks in [0, 2, 3, 7, 65] {
      for releaseOnly in [false, true] {
        let tally = Tally()
        let statesSeen = Locked(0)
        var witnesses: [WeakWitness] = []
        // Made, sent to and stopped from a nonisolated function, while this
        // test holds the main actor: the start, the event and the teardown
        // each wait for a hop to the main actor, which runs none of them
        // before the `await` below.
        var system: System<Held, UInt8>? = Self.makeOffTheMainActor(
          initial: Held(Box(0, tally: tally)), stopping: !releaseOnly,
          feedbacks: Self.synchronousFeedbacks(feedbacks, witnesses: &witnesses)
            + [Feedback.observer({ { _ in statesSeen.withLock { $0 += 1 } } })])
        if releaseOnly {
          system = nil
        } else {
          await Task { @MainActor in }.value
          #expect(system?.isStopped == true)
          #expect(witnesses.allSatisfy { $0.witness == nil }, "the teardown kept a feedback")
          system = nil
        }
        await Task { @MainActor in }.value
        #expect(statesSeen.withLock { $0 } == 0, "a feedback of a system stopped before its start saw a state")
        #expect(witnesses.allSatisfy { $0.witness == nil }, "\(feedbacks) feedbacks: a feedback outlived its system")
        #expect(tally.live == 0)
      }
    }
  }

  nonisolated static func makeOffTheMainActor(
    initial: Held, stopping: Bool, feedbacks: [Feedback<Held, UInt8>]
  ) -> System<Held, UInt8> {
    let system = System(
      initial: initial, reduce: { $0.refill($1) }, feedbacks: feedbacks, isolation: .mainActor)
    system.send(1)
    if stopping { system.stop() }
    return system
  }

  // MARK: - The exercise

  enum Ending: CaseIterable {
    /// `stop()`, then the release.
    case stop
    /// The release, with no stop.
    case release
    /// A feedback stops the system from inside its loop.
    case stopFromInside
  }

  /// Feedbacks of every kind, in turn, each holding a witness that must go
  /// when the system stops: ones that start and cancel effects (their
  /// watermarks), keyed ones (which cancel one effect at a time), an input,
  /// an observer, a stream.
  static func feedbacks<State: Pattern>(
    _ count: Int, input: Input<UInt8>, stopper: Ref<System<State, UInt8>>, witnesses: inout [WeakWitness]
  ) -> [Feedback<State, UInt8>] {
    (0..<count).map { index in
      let witness = Witness(index)
      witnesses.append(WeakWitness(witness: witness))
      switch index % 8 {
      case 0:
        return Feedback.query({ witness.touch($0.fill < 3 ? $0.fill : nil) }) { fill in
          .after(.seconds(1), send: fill &+ 1)
        }
      case 1:
        return Feedback.predicate({ witness.touch($0.fill == 2) }, whenFalse: .keepRunning) { _ in
          .after(.seconds(2), send: 7)
        }
      case 2:
        return .requests({ state in witness.touch(state.fill == 0 ? [] : [Int(state.fill) % 3, 5]) }) {
          request in .after(.seconds(1), send: UInt8(request))
        }
      case 3:
        return .requests({ state in witness.touch(state.fill < 4 ? [1: state.fill, 2: 9] : [:]) }) {
          _, value, _ in .after(.seconds(3), send: value &+ 10)
        }
      case 4:
        // One input binds to one feedback: the later ones get their own.
        return .input(index == 4 ? input : Input())
      case 5:
        return Feedback.observer({
          { state in
            _ = witness.touch(state)
            if state.fill == 9 { stopper.value?.stop() }
          }
        })
      case 6:
        return Feedback.events({ states in states.compactMap { witness.touch($0.fill == 200 ? UInt8(1) : nil) } })
      default:
        return Feedback.query({ witness.touch($0.fill % 2) }) { _ in .none }
      }
    }
  }

  /// Feedbacks that start no task: for systems driven from several threads.
  static func synchronousFeedbacks<State: Pattern>(_ count: Int, witnesses: inout [WeakWitness])
    -> [Feedback<State, UInt8>]
  {
    (0..<count).map { index in
      let witness = Witness(index)
      witnesses.append(WeakWitness(witness: witness))
      if index % 2 == 0 {
        return Feedback.query({ witness.touch($0.fill == 3 ? $0.fill : nil) }) { _ in .none }
      }
      return Feedback.observer({ { _ = witness.touch($0) } })
    }
  }

  func exercise<State: Pattern>(_ initial: State, feedbacks count: Int, ending: Ending) {
    let executor = ManualTaskExecutor()
    let clock = TestClock(executor: executor)
    let input = Input<UInt8>()
    let stopper = Ref<System<State, UInt8>>()
    var witnesses: [WeakWitness] = []
    var system: System<State, UInt8>? = System(
      initial: initial, reduce: { $0.refill($1) },
      feedbacks: Self.feedbacks(count, input: input, stopper: stopper, witnesses: &witnesses),
      environment: SystemEnvironment(clock: clock, effectExecutor: executor))
    let context = "\(State.self), \(count) feedbacks, \(ending)"
    func expectWhole(_ expected: UInt8?) {
      guard let state = system?.state else { return }
      #expect(state.isWhole, "\(context): the state was overwritten")
      if let expected, State.holdsBytes { #expect(state.fill == expected, "\(context)") }
    }
    expectWhole(0)
    executor.runUntilIdle()
    for fill: UInt8 in [1, 2, 3, 2, 1] {
      system?.send(fill)
      expectWhole(fill)
      clock.advance(by: .milliseconds(500))
      expectWhole(nil)
    }
    input.send(4)
    executor.runUntilIdle()
    expectWhole(nil)
    clock.advance(by: .seconds(5))
    expectWhole(nil)
    switch ending {
    case .stop:
      system?.stop()
      #expect(system?.isStopped == true)
    case .release:
      break
    case .stopFromInside:
      if let system { stopper.value = system }
      system?.send(9)
      let stopsItself = count > 5 && State.holdsBytes
      #expect(system?.isStopped == stopsItself, "\(context)")
      stopper.value = nil
    }
    expectWhole(nil)
    system = nil
    executor.runUntilIdle()
    clock.advance(by: .seconds(10))
    executor.runUntilIdle()
    let kept = witnesses.filter { $0.witness != nil }.count
    #expect(kept == 0, "\(context): \(kept) feedbacks outlived their system")
  }
}

// MARK: - States of every size and alignment

/// A state whose bytes all hold one value, so that a write of another part
/// of the allocation over it shows.
protocol Pattern: Sendable {
  /// Whether the state has bytes to fill (not an empty struct).
  static var holdsBytes: Bool { get }
  /// The byte the state holds.
  var fill: UInt8 { get }
  /// Whether every byte holds `fill`.
  var isWhole: Bool { get }
  mutating func refill(_ byte: UInt8)
}

extension Pattern {
  static var holdsBytes: Bool { true }
}

struct NoBytes: Pattern {
  static var holdsBytes: Bool { false }
  var fill: UInt8 { 0 }
  var isWhole: Bool { true }
  mutating func refill(_ byte: UInt8) {}
}

extension UInt8: Pattern {
  var fill: UInt8 { self }
  var isWhole: Bool { true }
  mutating func refill(_ byte: UInt8) { self = byte }
}

/// `count` bytes, aligned to 1.
struct Bytes<let count: Int>: Pattern {
  var bytes: InlineArray<count, UInt8>
  init(filling byte: UInt8) { bytes = InlineArray(repeating: byte) }
  var fill: UInt8 { bytes[0] }
  var isWhole: Bool { (0..<count).allSatisfy { bytes[$0] == bytes[0] } }
  mutating func refill(_ byte: UInt8) { bytes = InlineArray(repeating: byte) }
}

/// A word then `count` bytes: `8 + count` bytes, aligned to 8.
struct Words<let count: Int>: Pattern {
  var word: UInt64
  var bytes: InlineArray<count, UInt8>
  init(filling byte: UInt8) {
    word = UInt64(byte) &* 0x0101_0101_0101_0101
    bytes = InlineArray(repeating: byte)
  }
  var fill: UInt8 { UInt8(truncatingIfNeeded: word) }
  var isWhole: Bool {
    word == UInt64(fill) &* 0x0101_0101_0101_0101 && (0..<count).allSatisfy { bytes[$0] == fill }
  }
  mutating func refill(_ byte: UInt8) { self = Words(filling: byte) }
}

/// 16 bytes aligned to 16.
struct Vector4: Pattern {
  var lanes: SIMD4<Float>
  init(filling byte: UInt8) { lanes = SIMD4(repeating: Float(byte)) }
  var fill: UInt8 { UInt8(lanes[0]) }
  var isWhole: Bool { lanes == SIMD4(repeating: lanes[0]) }
  mutating func refill(_ byte: UInt8) { self = Vector4(filling: byte) }
}

/// 64 bytes aligned to 16.
struct Vector16: Pattern {
  var lanes: SIMD16<Float>
  init(filling byte: UInt8) { lanes = SIMD16(repeating: Float(byte)) }
  var fill: UInt8 { UInt8(lanes[0]) }
  var isWhole: Bool { lanes == SIMD16(repeating: lanes[0]) }
  mutating func refill(_ byte: UInt8) { self = Vector16(filling: byte) }
}

/// 64 bytes of doubles.
struct Vector8Double: Pattern {
  var lanes: SIMD8<Double>
  init(filling byte: UInt8) { lanes = SIMD8(repeating: Double(byte)) }
  var fill: UInt8 { UInt8(lanes[0]) }
  var isWhole: Bool { lanes == SIMD8(repeating: lanes[0]) }
  mutating func refill(_ byte: UInt8) { self = Vector8Double(filling: byte) }
}

/// Counts the boxes alive.
final class Tally: Sendable {
  let counts = Locked((made: 0, live: 0))
  var live: Int { counts.withLock { $0.live } }
  var made: Int { counts.withLock { $0.made } }
}

final class Box: Sendable {
  let byte: UInt8
  let tally: Tally
  init(_ byte: UInt8, tally: Tally) {
    self.byte = byte
    self.tally = tally
    tally.counts.withLock {
      $0.made += 1
      $0.live += 1
    }
  }
  deinit { tally.counts.withLock { $0.live -= 1 } }
}

/// One reference.
struct Held: Pattern {
  var box: Box
  init(_ box: Box) { self.box = box }
  var fill: UInt8 { box.byte }
  var isWhole: Bool { true }
  mutating func refill(_ byte: UInt8) { box = Box(byte, tally: box.tally) }
}

/// A reference in an existential (32 bytes).
struct Erased: Pattern {
  var value: any Sendable
  init(_ box: Box) { value = box }
  var fill: UInt8 { (value as! Box).byte }
  var isWhole: Bool { value is Box }
  mutating func refill(_ byte: UInt8) { value = Box(byte, tally: (value as! Box).tally) }
}

/// What a feedback's closures hold: gone once the system let them go.
final class Witness: Sendable {
  let index: Int
  init(_ index: Int) { self.index = index }
  func touch<Value>(_ value: Value) -> Value { value }
}

struct WeakWitness {
  weak var witness: Witness?
}
