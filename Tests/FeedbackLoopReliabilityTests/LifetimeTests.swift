import FeedbackLoop
import FeedbackLoopTesting
import Foundation
import Testing

extension Reliability {
  /// G9 at scale: systems released or stopped with work in flight leave
  /// nothing behind.
  @Suite("Lifetime")
  struct LifetimeTests {
    enum Event: Sendable, Equatable {
      case add(Int)
      case tick
    }

    /// What the effects of the systems below saw.
    struct Witnesses: Sendable {
      let cancelled = Counter()
      let inputsEnded = Counter()
      let coresFreed = Counter()
      let effectClosuresFreed = Counter()
    }

    /// A system with three effects and an input in flight: a timer on the
    /// clock, two keyed effects that wait forever (until cancelled), and an
    /// async-sequence input that never ends on its own (and, if given, an
    /// ``Input`` handle, which runs no task). Each effect closure
    /// and the reducer hold a sentinel, so that their release is counted.
    static func makeSystem(
      _ environment: SystemEnvironment,
      _ witnesses: Witnesses,
      handle: Input<Event>? = nil,
      monitor: SystemMonitor<Int, Event>? = nil
    ) -> (System<Int, Event>, AsyncStream<Event>.Continuation) {
      let (input, continuation) = AsyncStream<Event>.makeStream()
      continuation.onTermination = { _ in witnesses.inputsEnded.add() }
      let reducerSentinel = Sentinel(witnesses.coresFreed)
      let system = System(
        initial: 0,
        reduceReturning: { (state: Int, event: Event) -> Int in
          _ = reducerSentinel
          guard case .add(let amount) = event else { return state }
          return state + amount
        },
        feedbacks: (handle.map { [Feedback<Int, Event>.input($0)] } ?? []) + [
          .input(input),
          Feedback.query({ $0 }) { _ in
            let sentinel = Sentinel(witnesses.effectClosuresFreed)
            return .run { send in
              _ = sentinel
              do {
                try await send.clock.sleep(for: .seconds(3_600))
              } catch {
                witnesses.cancelled.add()
                throw error
              }
              send(.tick)
            }
          },
          .requests({ _ in [1, 2] }) { _ in
            let sentinel = Sentinel(witnesses.effectClosuresFreed)
            return .run { _ in
              _ = sentinel
              // Waits for a value that never comes; ends when cancelled.
              let (never, keep) = AsyncStream<Int>.makeStream()
              for await _ in never {}
              withExtendedLifetime(keep) {}
              if Task.isCancelled { witnesses.cancelled.add() }
            }
          },
        ],
        environment: environment, monitor: monitor)
      return (system, continuation)
    }

    /// Creates `Scale.systems` systems with work in flight and releases
    /// them, three rounds over; checks that nothing is left after each: the
    /// systems, their cores, effect closures and tasks, the process-wide
    /// task count; and that resident memory does not grow from round to
    /// round. Returns what went wrong, and prints its figures.
    ///
    /// Runs in a process of its own (see below): the process-wide count and
    /// resident memory are then this scenario's alone, exactly.
    static func releaseSystemsWithWorkInFlight() -> [String] {
      var failures: [String] = []
      func check(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { failures.append(message()) }
      }
      let count = Scale.systems
      let harness = Harness()
      check(
        FeedbackLoopResources.runningTaskCount == 0,
        "a fresh process counts \(FeedbackLoopResources.runningTaskCount) running tasks")

      /// One round; returns the resident memory while the systems were held.
      func round(_ number: Int) -> Int? {
        let witnesses = Witnesses()
        let activity = ActivityCounts<Int, Event>()
        var weakSystems: [Weak<System<Int, Event>>] = []
        var continuations: [AsyncStream<Event>.Continuation] = []
        var memoryHeld: Int?
        do {
          var systems: [System<Int, Event>] = []
          for _ in 0..<count {
            let (system, continuation) = Self.makeSystem(harness.environment, witnesses, monitor: activity.monitor)
            systems.append(system)
            continuations.append(continuation)
          }
          harness.settle()  // every effect and input reaches its suspension point
          check(systems.allSatisfy { $0.runningTaskCount == 4 }, "round \(number): not every system runs 4 tasks")
          check(
            harness.clock.sleeperCount == count,
            "round \(number): \(harness.clock.sleeperCount) timers asleep, not \(count)")
          check(
            FeedbackLoopResources.runningTaskCount == 4 * count,
            "round \(number): \(FeedbackLoopResources.runningTaskCount) tasks running, not \(4 * count)")
          check(witnesses.cancelled.value == 0, "round \(number): effects cancelled before the release")
          memoryHeld = ResidentMemory.bytes()
          weakSystems = systems.map { Weak(object: $0) }
        }
        // The last references are gone: every system is deallocated at once.
        let alive = weakSystems.count { $0.object != nil }
        check(alive == 0, "round \(number): \(alive) released systems still alive")
        weakSystems = []
        // Their tasks are cancelled; they end when the executor runs them.
        harness.settle()
        check(
          witnesses.cancelled.value == 3 * count,
          "round \(number): \(witnesses.cancelled.value) effects saw their cancellation")
        check(witnesses.inputsEnded.value == count, "round \(number): \(witnesses.inputsEnded.value) inputs ended")
        check(
          activity.current.cancelled == 3 * count,
          "round \(number): the monitors saw \(activity.current.cancelled) cancellations")
        check(activity.current.stopped == count, "round \(number): the monitors saw \(activity.current.stopped) stops")
        check(
          witnesses.effectClosuresFreed.value == 3 * count,
          "round \(number): \(witnesses.effectClosuresFreed.value) effect closures released")
        // A core is freed only once the last of its tasks has ended.
        check(witnesses.coresFreed.value == count, "round \(number): \(witnesses.coresFreed.value) cores freed")
        check(harness.clock.sleeperCount == 0, "round \(number): \(harness.clock.sleeperCount) timers asleep")
        check(harness.executor.pendingJobs == 0, "round \(number): \(harness.executor.pendingJobs) jobs queued")
        check(
          FeedbackLoopResources.runningTaskCount == 0,
          "round \(number): \(FeedbackLoopResources.runningTaskCount) tasks still running")
        return memoryHeld
      }

      let before = ResidentMemory.bytes()
      let held = round(1)
      // The first round leaves the harness's buffers grown and the runtime's
      // caches filled for good: the heap is measured from here on.
      let afterFirst = ResidentMemory.bytes()
      let heapAfterFirst = ResidentMemory.heapInUse()
      _ = round(2)
      _ = round(3)
      let afterThird = ResidentMemory.bytes()
      let heapAfterThird = ResidentMemory.heapInUse()

      // The leak check: what the allocator handed out and did not get back
      // over two more rounds. Swift Testing keeps a backtrace for every error
      // thrown in its process (each cancelled timer throws one) unless told
      // not to: the parent starts this process with that switched off.
      let backtracesOff = ProcessInfo.processInfo.environment["SWT_SWIFT_ERROR_BACKTRACING_ENABLED"] == "0"
      var heapFigure = "heap in use not measured"
      if let heapAfterFirst, let heapAfterThird, backtracesOff {
        let leaked = heapAfterThird - heapAfterFirst
        // Less than 16 bytes a system: a leaked task, closure or core is
        // hundreds.
        check(
          leaked < 2 * count * 16,
          "the heap holds \(leaked) bytes more after 2 more rounds of \(count) released systems")
        heapFigure = "heap in use \(leaked >= 0 ? "+" : "")\(leaked) bytes over rounds 2 and 3"
      }
      // Resident memory, tolerantly: the allocator keeps pages, and a
      // sanitizer's allocator keeps freed memory in quarantine.
      if let before, let held, let afterFirst, let afterThird {
        let perRound = held - before
        if !Scale.underSanitizer {
          check(
            afterThird - before < perRound,
            "resident memory stayed \(ResidentMemory.megabytes(afterThird - before)) above the baseline after "
              + "3 rounds (one round holds \(ResidentMemory.megabytes(perRound)))")
        }
        reportFigure(
          "G9 released: 3 rounds of \(count) systems with \(3 * count) effects and \(count) inputs in flight, all "
            + "deallocated, every effect cancelled, running tasks back to \(FeedbackLoopResources.runningTaskCount); "
            + "\(heapFigure); resident memory +\(ResidentMemory.megabytes(perRound)) while held, "
            + "+\(ResidentMemory.megabytes(afterFirst - before)) after the first release, "
            + "+\(ResidentMemory.megabytes(afterThird - before)) after the third")
      }
      return failures
    }

    #if os(macOS) || os(Linux) || os(Windows)
      @Test(
        "G9 10,000 systems released with effects in flight: all deallocated, every effect cancelled, task count back to zero, memory back",
        .timeLimit(.minutes(10)))
      func releasedSystemsLeaveNothing() async {
        // In a process of its own, so that no other test's tasks or memory
        // blur the process-wide figures. It inherits this environment: switch
        // off Swift Testing's backtraces of thrown errors there, which would
        // otherwise grow the heap by each cancellation's error. (Setting a
        // variable while other threads may read the environment is not
        // thread-safe in general; this one is read by Swift Testing only when
        // a process starts, and is set here only if it is not set already.)
        if ProcessInfo.processInfo.environment["SWT_SWIFT_ERROR_BACKTRACING_ENABLED"] != "0" {
          setenv("SWT_SWIFT_ERROR_BACKTRACING_ENABLED", "0", 1)
        }
        // The process reports its failures on its standard output, and exits
        // normally: a failed exit expectation would keep its output from us.
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
          let failures = LifetimeTests.releaseSystemsWithWorkInFlight()
          for failure in failures { print("FAILED: \(failure)") }
        }
        guard let result else { return }  // it crashed: the expectation above says how
        let output = String(decoding: result.standardOutputContent, as: UTF8.self)
        for line in output.split(separator: "\n") {
          if line.hasPrefix("FAILED: ") { Issue.record(Comment(rawValue: String(line.dropFirst(8)))) }
          if line.hasPrefix("[reliability]") { print(line) }
        }
        #expect(output.contains("[reliability] G9 released"))
      }
    #endif

    @Test(
      "G9 10,000 systems on the global executor, released while their effects start: every task ends, every core is freed",
      .timeLimit(.minutes(10)))
    func releasedSystemsOnTheGlobalExecutor() async {
      let count = Scale.systems
      let witnesses = Witnesses()
      let environment = SystemEnvironment()
      for _ in 0..<count {
        let (system, continuation) = Self.makeSystem(environment, witnesses)
        system.send(.add(1))  // restarts the timer: one more cancellation
        _ = continuation
      }
      // Released at once, racing their tasks' start: wait for every core to
      // be freed, which happens only after its last task has ended.
      await witnesses.coresFreed.wait(untilAtLeast: count)
      await witnesses.effectClosuresFreed.wait(untilAtLeast: 4 * count)
      // A system released before its input's task first ran never iterates
      // the stream (a task that starts after the stop skips its body), so
      // the stream ends when the core's teardown frees it, which may be
      // just after the reducer's sentinel counted the core as freed: wait
      // for it rather than read it at once (a hang fails the time limit).
      await witnesses.inputsEnded.wait(untilAtLeast: count)
      #expect(witnesses.inputsEnded.value == count)
      reportFigure(
        "G9 global executor: \(count) systems released while \(4 * count) effects and \(count) inputs started; "
          + "\(witnesses.coresFreed.value) cores freed, every effect closure released")
    }

    @Test(
      "G9 stopped systems: every task ends, runningTaskCount falls to zero, and what is sent afterwards is reported")
    func stoppedSystemsReportLateSends() {
      let count = Scale.systems / 10
      let harness = Harness()
      let witnesses = Witnesses()
      let activity = ActivityCounts<Int, Event>()
      var systems: [(system: System<Int, Event>, input: AsyncStream<Event>.Continuation, handle: Input<Event>)] = []
      for _ in 0..<count {
        let handle = Input<Event>()
        let (system, continuation) = Self.makeSystem(
          harness.environment, witnesses, handle: handle, monitor: activity.monitor)
        systems.append((system, continuation, handle))
      }
      harness.settle()
      #expect(systems.allSatisfy { $0.system.runningTaskCount == 4 })
      for entry in systems { entry.system.stop() }
      #expect(systems.allSatisfy { $0.system.isStopped })
      harness.settle()
      #expect(systems.allSatisfy { $0.system.runningTaskCount == 0 })
      #expect(witnesses.cancelled.value == 3 * count)
      #expect(witnesses.inputsEnded.value == count)
      // Sends after the stop, by every route: the system, its Input handle.
      // None is reduced; every event is reported. The async-sequence input
      // was cancelled: it no longer listens.
      for entry in systems {
        entry.system.send(.add(1))
        entry.handle.send(.add(1))
        entry.system.send(contentsOf: [.add(1), .add(1)])
        entry.input.yield(.add(1))
      }
      harness.settle()
      #expect(systems.allSatisfy { $0.system.state == 0 })
      #expect(activity.discarded(.systemStopped) == 4 * count)
      #expect(activity.current.reduced == 0)
      reportFigure(
        "G9 stopped: \(count) systems stopped with \(3 * count) effects in flight, all tasks ended; "
          + "\(4 * count) events sent afterwards, 0 reduced, \(activity.discarded(.systemStopped)) reported as systemStopped"
      )
    }

    @Test(
      "G9 G2 8 threads send while another stops the system: every event is either reduced or reported as systemStopped",
      .timeLimit(.minutes(5)))
    func sendsRacingAStopAreAllAccountedFor() async {
      let count = Scale.eventsPerSender / 10
      let reduced = Counter()
      let counts = ActivityCounts<Int, Event>()
      let system = System(
        initial: 0,
        reduceReturning: { (state: Int, event: Event) -> Int in
          reduced.add()
          return state + 1
        },
        monitor: counts.monitor)
      let start = Gate()
      let halfway = Counter()
      async let senders: Void = onThreads(8, startingAt: start) { _ in
        for number in 0..<count {
          system.send(.add(1))
          if number == count / 2 { halfway.add() }
        }
      }
      start.open()
      await halfway.wait(untilAtLeast: 1)
      system.stop()  // while the senders are at work
      await senders
      #expect(reduced.value + counts.discarded(.systemStopped) == 8 * count)
      #expect(reduced.value == system.state)
      #expect(reduced.value == counts.current.reduced)
      reportFigure(
        "G9 stop under load: \(8 * count) events sent by 8 threads around a stop, \(reduced.value) reduced, "
          + "\(counts.discarded(.systemStopped)) reported as systemStopped, 0 unaccounted")
    }
  }
}
