import CFeedbackLoopShims
import FeedbackLoop
import Foundation
import Testing

extension Reliability {
  /// Reads of a system from inside its own reducer and from other threads,
  /// in every form of the reduction guard that ships (membarrier; a full
  /// fence on both sides, forced with FEEDBACKLOOP_REDUCTION_GUARD=fence;
  /// ThreadSanitizer's spin lock). Outcomes are deterministic; waits end on
  /// counts, never on time.
  @Suite("Read guard")
  struct ReadGuardTests {
    /// Lets a reducer reach the system it reduces for.
    final class SystemReference: @unchecked Sendable {
      // Sendable: written once, before any event is sent; the send that
      // follows orders that write before every read in the reducer. Weak:
      // the reducer holds this reference, and a strong one would make a
      // cycle through the system (LeakSanitizer reported it).
      weak var system: System<Int, Int>?
    }

    @Test(
      "G15 a reducer that reads runningTaskCount and observes its own system does not deadlock, in every guard form",
      .timeLimit(.minutes(1)))
    func reducerReadsItsOwnSystem() {
      let reference = SystemReference()
      let seenCounts = Locked<[Int]>([])
      let observed = Locked<[Int]>([])
      let system = System<Int, Int>(
        initial: 0,
        reduce: { state, event in
          state += event
          guard let system = reference.system else { return }
          // Under ThreadSanitizer the guard was the system's lock, which
          // both of these take: the reducer deadlocked on itself.
          let count = system.runningTaskCount
          seenCounts.withLock { $0.append(count) }
          if event == 1 { _ = system.observe { value in observed.withLock { $0.append(value) } } }
        })
      reference.system = system
      for event in 1...3 { system.send(event) }
      #expect(system.state == 6)
      #expect(seenCounts.current == [0, 0, 0])
      // The observer was added from inside the first reduction: it receives
      // the state after it, then every later one.
      #expect(observed.current == [1, 3, 6])
      system.stop()
    }

    @Test("G15 the reduction guard runs in the form the environment asks for")
    func guardFormFollowsTheEnvironment() {
      let form = fl_reduction_guard_form()
      let forced = ProcessInfo.processInfo.environment["FEEDBACKLOOP_REDUCTION_GUARD"]
      #if os(Linux)
        if form == FL_GUARD_LOCK {
          // A ThreadSanitizer build: the one form it can see.
          return
        }
        #expect(form == (forced == "fence" ? FL_GUARD_FENCE : FL_GUARD_MEMBARRIER))
        reportFigure("G15 reduction guard form: \(form == FL_GUARD_FENCE ? "fence" : "membarrier")")
      #else
        #expect(form == FL_GUARD_FENCE || form == FL_GUARD_LOCK)
      #endif
    }

    /// A state with a reference inside: a copy retains its array, so a read
    /// torn by a reduction shows as a count that disagrees with `total`.
    struct Tally: Sendable {
      var total = 0
      var items: [Int] = []
      var isWhole: Bool { items.count == total && (items.last ?? 0) == total }
    }

    @Test(
      "G15 readers on every core read in tight loops while a sender sends: both make progress, every read whole",
      .timeLimit(.minutes(10)))
    func readersAndSenderBothProgress() async {
      let sends = Scale.pick(20_000, sanitized: 5_000)
      let readsPerReader = Scale.pick(20_000, sanitized: 5_000)
      let readers = ProcessInfo.processInfo.activeProcessorCount
      let system = System<Tally, Int>(
        initial: Tally(),
        reduce: { state, number in
          state.total += 1
          state.items.append(number)
        })
      let torn = Locked(0)
      let start = Gate()
      let started = ContinuousClock.now
      async let sender: Void = onThreads(1, startingAt: start) { _ in
        for number in 1...sends { system.send(number) }
      }
      async let reading: Void = onThreads(readers, startingAt: start) { _ in
        var mine = 0
        for _ in 0..<readsPerReader where !system.state.isWhole { mine += 1 }
        torn.withLock { $0 += mine }
      }
      start.open()
      await sender
      await reading
      let elapsed = ContinuousClock.now - started
      #expect(torn.current == 0, "\(torn.current) reads saw a state in the middle of a reduction")
      #expect(system.state.total == sends)
      #expect(system.state.isWhole)
      system.stop()
      reportFigure(
        "G15 \(readers) readers × \(readsPerReader) reads while 1 thread sent \(sends) events: \(torn.current) torn; "
          + "\(elapsed) (form \(fl_reduction_guard_form()))")
    }

    @Test(
      "G15 a reader on the main actor reads a peer of a main-actor system while a thread keeps the peer busy: both progress, every read whole",
      .timeLimit(.minutes(10)))
    @MainActor
    func mainActorReaderOfABusyPeer() async {
      let sends = Scale.pick(20_000, sanitized: 5_000)
      let reads = Scale.pick(20_000, sanitized: 5_000)
      // The peer: a system of its own isolation, fed from another thread and
      // from the main-actor system's observer, which runs on the main actor.
      let peer = System<Tally, Int>(
        initial: Tally(),
        reduce: { state, _ in
          // Numbers come from two senders, so the state counts for itself.
          state.total += 1
          state.items.append(state.total)
        })
      let screen = System<Int, Int>(initial: 0, reduceReturning: { _, number in number }, isolation: .mainActor)
      let relay = screen.observe { number in if number > 0 { peer.send(number) } }
      let start = Gate()
      async let sender: Void = onThreads(1, startingAt: start) { _ in
        for number in 1...sends { peer.send(number) }
      }
      start.open()
      var torn = 0
      for read in 0..<reads {
        if !peer.state.isWhole { torn += 1 }
        // Every hundredth read, the main actor itself sends to the peer
        // through the main-actor system, so the peer's loop is entered from
        // the main actor too, between reads.
        if read % 100 == 0 { screen.send(read + 1) }
      }
      await sender
      let relayed = reads / 100
      #expect(torn == 0, "\(torn) reads on the main actor saw the peer in the middle of a reduction")
      #expect(peer.state.total == sends + relayed)
      #expect(peer.state.isWhole)
      relay.cancel()
      screen.stop()
      peer.stop()
    }

    @Test(
      "G15 readers on other threads read a main-actor system while the main actor reduces: both progress, every read whole",
      .timeLimit(.minutes(10)))
    @MainActor
    func otherThreadsReadAMainActorSystem() async {
      let sends = Scale.pick(20_000, sanitized: 5_000)
      let readsPerReader = Scale.pick(20_000, sanitized: 5_000)
      let system = System<Tally, Int>(
        initial: Tally(),
        reduce: { state, number in
          state.total += 1
          state.items.append(number)
        },
        isolation: .mainActor)
      let torn = Locked(0)
      let start = Gate()
      async let reading: Void = onThreads(ProcessInfo.processInfo.activeProcessorCount, startingAt: start) { _ in
        var mine = 0
        for _ in 0..<readsPerReader where !system.state.isWhole { mine += 1 }
        torn.withLock { $0 += mine }
      }
      start.open()
      // Sent on the main actor: each send reduces before it returns, while
      // the readers read.
      for number in 1...sends { system.send(number) }
      await reading
      #expect(torn.current == 0, "\(torn.current) reads saw the main-actor system in the middle of a reduction")
      #expect(system.state.total == sends)
      #expect(system.state.isWhole)
      system.stop()
    }
  }
}
