import CFeedbackLoopShims
import FeedbackLoop
import Foundation
import Testing

extension Reliability {
  /// Reads of a bitwise-copyable state from other threads, which take no
  /// lock and never ask the owner (a seqlock on the reduction guard's
  /// sequence; SystemCore+Reads.swift), in every form of the guard that
  /// ships. Under ThreadSanitizer the reads go through the owner instead
  /// (the sanitizer would report the racy copy), and these tests check that
  /// protocol. Waits end on counts, never on time.
  @Suite("Optimistic reads")
  struct OptimisticReadTests {
    /// Three numbers the reducer moves one at a time: 24 bytes, so the
    /// state lives in the reduction guard's cache line.
    struct Triple: SteppedState, Equatable {
      var a = 0, b = 0, c = 0
      var isWhole: Bool { a == b && b == c }
      var count: Int { a }
      /// Lingers between its writes, so that a read that kept a copy
      /// without checking the sequence again would be caught halfway (it
      /// was, with the check removed from fl_sequence_read_validate).
      mutating func step() {
        a += 1
        Self.linger()
        b += 1
        Self.linger()
        c += 1
      }

      @inline(never) static func linger() {
        var sum = 0
        for number in 0..<64 { sum &+= number }
        precondition(sum > 0)
      }
    }

    /// Sixteen numbers: 128 bytes, too many for the guard's line, so the
    /// state lives after the inbox.
    struct Wide: SteppedState {
      var numbers = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
      var isWhole: Bool {
        withUnsafeBytes(of: numbers) { bytes in
          let all = bytes.bindMemory(to: Int.self)
          return all.allSatisfy { $0 == all[0] }
        }
      }
      var count: Int { numbers.0 }
      mutating func step() {
        withUnsafeMutableBytes(of: &numbers) { bytes in
          for index in bytes.bindMemory(to: Int.self).indices {
            bytes.storeBytes(
              of: bytes.load(fromByteOffset: index * 8, as: Int.self) + 1, toByteOffset: index * 8, as: Int.self)
          }
        }
      }
    }

    @Test(
      "G15 optimistic reads of a bitwise-copyable state are never torn and never go back, in the guard's line and out of it",
      .timeLimit(.minutes(10)), arguments: ["triple", "wide"])
    func readersNeverSeeAHalfReducedState(kind: String) async {
      let sends = Scale.pick(50_000, sanitized: 5_000)
      let readsPerReader = Scale.pick(50_000, sanitized: 5_000)
      let readers = ProcessInfo.processInfo.activeProcessorCount
      if kind == "triple" {
        await checkReads(of: Triple(), sends: sends, readers: readers, readsPerReader: readsPerReader)
      } else {
        await checkReads(of: Wide(), sends: sends, readers: readers, readsPerReader: readsPerReader)
      }
    }

    /// A state the reducer moves one field at a time, and can say whether
    /// a copy of it is whole.
    protocol SteppedState: Sendable {
      var isWhole: Bool { get }
      var count: Int { get }
      mutating func step()
    }

    func checkReads<State: SteppedState>(of initial: State, sends: Int, readers: Int, readsPerReader: Int) async {
      let system = System<State, Int>(initial: initial, reduce: { state, _ in state.step() })
      let outcome = await readWhileSending(
        system, sends: sends, readers: readers, readsPerReader: readsPerReader, isWhole: \.isWhole,
        count: \.count)
      #expect(outcome.torn == 0, "\(outcome.torn) reads saw a state in the middle of a reduction")
      #expect(outcome.backwards == 0, "\(outcome.backwards) reads saw an older state than the read before")
      #expect(system.state.isWhole && system.state.count == sends)
      system.stop()
    }

    @Test(
      "G15 a main-actor system's bitwise-copyable state read from every core while the main actor reduces: every read whole",
      .timeLimit(.minutes(10)))
    @MainActor
    func readersOfAMainActorSystem() async {
      let sends = Scale.pick(20_000, sanitized: 5_000)
      let readsPerReader = Scale.pick(20_000, sanitized: 5_000)
      let system = System<Triple, Int>(
        initial: Triple(), reduce: { state, _ in state.step() }, isolation: .mainActor)
      let torn = Locked(0)
      let start = Gate()
      async let reading: Void = onThreads(ProcessInfo.processInfo.activeProcessorCount, startingAt: start) { _ in
        var mine = 0
        for _ in 0..<readsPerReader where !system.state.isWhole { mine += 1 }
        torn.withLock { $0 += mine }
      }
      start.open()
      for number in 1...sends { system.send(number) }
      await reading
      #expect(torn.current == 0, "\(torn.current) reads saw the main-actor system in the middle of a reduction")
      #expect(system.state.count == sends)
      system.stop()
    }

    struct Outcome {
      var torn = 0
      var backwards = 0
    }

    /// One thread sends `sends` events while `readers` threads each read
    /// `readsPerReader` times, counting reads that were torn, or older than
    /// the same thread's read before.
    func readWhileSending<State: Sendable>(
      _ system: System<State, Int>, sends: Int, readers: Int, readsPerReader: Int,
      isWhole: @escaping @Sendable (State) -> Bool, count: @escaping @Sendable (State) -> Int
    ) async -> Outcome {
      let outcome = Locked(Outcome())
      let start = Gate()
      async let sender: Void = onThreads(1, startingAt: start) { _ in
        for number in 1...sends { system.send(number) }
      }
      async let reading: Void = onThreads(readers, startingAt: start) { _ in
        var mine = Outcome()
        var last = 0
        for _ in 0..<readsPerReader {
          let state = system.state
          if !isWhole(state) { mine.torn += 1 }
          if count(state) < last { mine.backwards += 1 }
          last = count(state)
        }
        outcome.withLock {
          $0.torn += mine.torn
          $0.backwards += mine.backwards
        }
      }
      start.open()
      await sender
      await reading
      return outcome.current
    }
  }
}
