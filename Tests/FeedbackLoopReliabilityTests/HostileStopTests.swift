import FeedbackLoop
import Foundation
import Testing

extension Reliability {
  /// G9 and G14 under hostile use: every event is reduced or reported, every
  /// observer is told the system stopped, and `stop()` means the same wherever
  /// it is called from (a feedback's query, an `onStop` handler, the monitor).
  @Suite("Hostile stop")
  struct HostileStopTests {
    /// Where a callback finds the system it belongs to, once it exists.
    final class Box<Value: Sendable>: Sendable {
      let cell = Locked<Value?>(nil)
      var value: Value? { cell.current }
      func set(_ value: Value?) { cell.withLock { $0 = value } }
    }

    @Test("G14 G9 an event sent from an onStop handler is reported discarded as systemStopped")
    func eventFromOnStopIsReported() {
      let recorder = ActivityRecorder<Int, Int>()
      let system = System(initial: 0, reduceReturning: { (_: Int, event: Int) in event }, monitor: recorder.monitor)
      let observation = system.observe({ _ in }, onStop: { [unowned system] in system.send(7) })
      system.stop()
      #expect(recorder.discarded.map(\.event) == [7])
      #expect(recorder.discarded.map(\.reason) == [.systemStopped])
      _ = observation
    }

    @Test("G14 G9 an event sent from an onStop handler, when the loop stops itself, is reported discarded")
    func eventFromOnStopOfSelfStopIsReported() {
      let recorder = ActivityRecorder<Int, Int>()
      let system = System(initial: 0, reduceReturning: { (_: Int, event: Int) in event }, monitor: recorder.monitor)
      let observation = system.observe(
        { [unowned system] state in if state == 1 { system.stop() } },
        onStop: { [unowned system] in system.send(7) })
      system.send(1)
      #expect(system.isStopped)
      #expect(recorder.discarded.map(\.event) == [7])
      #expect(recorder.discarded.map(\.reason) == [.systemStopped])
      _ = observation
    }

    @Test("G14 G9 an event sent from the monitor's stopped report is reported discarded as systemStopped")
    func eventFromMonitorStoppedIsReported() {
      let box = Box<System<Int, Int>>()
      let discarded = Locked<[Int]>([])
      let monitor = SystemMonitor<Int, Int> { activity in
        switch activity {
        case .stopped: box.value?.send(8)
        case .eventDiscarded(let event, .systemStopped): discarded.withLock { $0.append(event) }
        default: break
        }
      }
      let system = System(initial: 0, reduceReturning: { (_: Int, event: Int) in event }, monitor: monitor)
      box.set(system)
      system.stop()
      box.set(nil)
      #expect(discarded.current == [8])
    }

    @Test(
      "G9 an observer added from an onStop handler gets its own onStop, and a states sequence made there ends",
      .timeLimit(.minutes(1)))
    func observerAddedFromOnStopIsTold() async {
      let innerStopped = Counter()
      let inner = Locked<StateObservation?>(nil)
      let sequence = Locked<StateSequence<Int>?>(nil)
      let system = System(initial: 0, reduceReturning: { (_: Int, event: Int) in event })
      let observation = system.observe(
        { _ in },
        onStop: { [unowned system] in
          inner.withLock { $0 = system.observe({ _ in }, onStop: { innerStopped.add() }) }
          sequence.withLock { $0 = system.states }
        })
      system.stop()
      #expect(innerStopped.value == 1)
      // A sequence that was never told would keep this loop waiting: the
      // time limit turns that into a failure.
      var seen: [Int] = []
      if let states = sequence.current {
        for await state in states { seen.append(state) }
      }
      #expect(seen.count <= 1)
      _ = observation
    }

    @Test("G9 stop() from inside a feedback's query: isStopped at once, no later feedback of the pass starts an effect")
    func stopInsideQueryStopsThePass() {
      let harness = Harness()
      let recorder = ActivityRecorder<Int, Int>()
      let box = Box<System<Int, Int>>()
      let stoppedInside = Locked<Bool?>(nil)
      let bodies = Counter()
      let queriesAfterStop = Counter()
      let system = System(
        initial: 0,
        reduceReturning: { (_: Int, event: Int) in event },
        feedbacks: [
          Feedback.query(
            { state -> Int? in
              if state == 1, let system = box.value {
                system.stop()
                stoppedInside.withLock { $0 = system.isStopped }
              }
              return nil
            }, name: "stopper"
          ) { _ in .none },
          Feedback.query(
            { state -> Int? in
              if state == 1 { queriesAfterStop.add() }
              return state == 1 ? 1 : nil
            }, name: "later"
          ) { _ in .run { _ in bodies.add() } },
        ],
        environment: harness.environment,
        monitor: recorder.monitor)
      box.set(system)
      system.send(1)
      box.set(nil)
      harness.settle()
      #expect(stoppedInside.current == true)
      #expect(system.isStopped)
      #expect(queriesAfterStop.value == 0, "a later feedback was asked after stop()")
      #expect(recorder.started.isEmpty, "started after stop(): \(recorder.started)")
      #expect(bodies.value == 0, "an effect's body ran after stop() returned")
    }

    /// Where a stop comes from while the system starts.
    enum StopWhileStarting: String, CaseIterable, Sendable {
      /// A feedback's handler, on the initial state.
      case startHandler
      /// The monitor, on its `.started` report.
      case monitorStartedReport
      /// Another thread, while a feedback's handler waits for it.
      case otherThread
    }

    @Test(
      "G9 stop() while the system starts: no later feedback is asked for the initial state or starts an effect",
      arguments: StopWhileStarting.allCases)
    @MainActor
    func stopWhileStartingStartsNothingAfter(_ source: StopWhileStarting) {
      let harness = Harness()
      let box = Box<System<Int, Int>>()
      let effectsStarted = Counter()
      let bodies = Counter()
      let laterQueries = Counter()
      let stopSystem: @Sendable () -> Void = {
        guard let system = box.value else { return }
        if source == .otherThread {
          let stopped = Gate()
          Thread {
            system.stop()
            stopped.open()
          }.start()
          stopped.waitBlocking()
        } else {
          system.stop()
        }
      }
      let monitor = SystemMonitor<Int, Int> { activity in
        switch activity {
        case .started where source == .monitorStartedReport: stopSystem()
        case .effectStarted: effectsStarted.add()
        default: break
        }
      }
      let system = Self.mainActorSystemStartedElsewhere(
        feedbacks: [
          Feedback.query(
            { state -> Int? in
              if state == 0, source != .monitorStartedReport { stopSystem() }
              return nil
            }, name: "stopper"
          ) { _ in .none },
          Feedback.query(
            { state -> Int? in
              laterQueries.add()
              return state == 0 ? 1 : nil
            }, name: "later"
          ) { _ in .run { _ in bodies.add() } },
        ],
        environment: harness.environment, monitor: monitor)
      // The start was queued for the main actor: it runs here, with the
      // system in the box.
      box.set(system)
      system.processQueuedEvents()
      box.set(nil)
      harness.settle()
      system.processQueuedEvents()
      #expect(system.isStopped)
      #expect(laterQueries.value == 0, "a later feedback was asked for the initial state after stop()")
      #expect(effectsStarted.value == 0, "an effect started after stop()")
      #expect(bodies.value == 0, "an effect's body ran after stop() returned")
    }

    /// A main-actor system made off the main actor: its start waits in the
    /// queue for the main actor, so that its feedbacks can find it in a box.
    nonisolated static func mainActorSystemStartedElsewhere(
      feedbacks: [Feedback<Int, Int>], environment: SystemEnvironment, monitor: SystemMonitor<Int, Int>
    ) -> System<Int, Int> {
      System(
        initial: 0, reduceReturning: { (_: Int, event: Int) in event }, feedbacks: feedbacks, isolation: .mainActor,
        environment: environment, monitor: monitor)
    }

    struct Holding: Sendable {
      var sentinel: Sentinel?
      var count = 0
    }

    @Test("G9 an Input kept after its system is released keeps nothing the system owned alive")
    func inputDoesNotKeepReleasedSystemAlive() {
      let freed = Counter()
      let input = Input<Int>()
      var system: System<Holding, Int>? = System(
        initial: Holding(sentinel: Sentinel(freed)),
        reduceReturning: { (state: Holding, event: Int) in
          var state = state
          state.count += event
          return state
        },
        feedbacks: [.input(input)])
      input.send(1)
      #expect(system?.state.count == 1)
      system = nil
      #expect(freed.value == 1, "the released system's state is still alive through its Input")
      input.send(2)  // to a released system: refused, and nothing crashes
      _ = system
    }

    @Test(
      "G14 G9 an event sent through the Input of a stopped system is reported systemStopped, and refused silently once the system is released"
    )
    func inputOfStoppedOrReleasedSystemRefuses() {
      let tally = EventTally()
      let input = Input<Int>()
      var system: System<Int, Int>? = System(
        initial: 0, reduceReturning: { (state: Int, event: Int) in state + event }, feedbacks: [.input(input)],
        monitor: tally.makeMonitor())
      input.send(1)
      system?.stop()
      input.send(2)
      #expect(tally.reduced.current == 1)
      #expect(tally.refused.current == 1)
      // Released, the system keeps no monitor to report to (G9).
      system = nil
      input.send(3)
      #expect(tally.refused.current == 1)
      _ = system
    }

    @Test("G9 an Input kept after its system is released keeps neither the reducer's nor the monitor's captures alive")
    func inputDoesNotKeepReducerOrMonitorOfReleasedSystem() {
      let freed = Counter()
      let input = Input<Int>()
      weak var reducerCapture: Sentinel?
      weak var monitorCapture: Sentinel?
      var system: System<Int, Int>? = {
        let capturedByReducer = Sentinel(freed)
        let capturedByMonitor = Sentinel(freed)
        reducerCapture = capturedByReducer
        monitorCapture = capturedByMonitor
        return System(
          initial: 0,
          reduceReturning: { (state: Int, event: Int) in
            withExtendedLifetime(capturedByReducer) { state + event }
          },
          feedbacks: [.input(input)],
          monitor: SystemMonitor { _ in withExtendedLifetime(capturedByMonitor) {} })
      }()
      input.send(1)
      #expect(system?.state == 1)
      #expect(reducerCapture != nil && monitorCapture != nil, "alive while the system is")
      system = nil
      #expect(reducerCapture == nil, "the released system's reducer is still alive through its Input")
      #expect(monitorCapture == nil, "the released system's monitor is still alive through its Input")
      #expect(freed.value == 2)
      input.send(2)  // to a released system: refused, and nothing crashes
      _ = system
    }

    @Test("G9 an Input kept after its system stopped keeps nothing the reducer captured alive")
    func inputDoesNotKeepReducerOfStoppedSystem() {
      let freed = Counter()
      let tally = EventTally()
      let input = Input<Int>()
      weak var reducerCapture: Sentinel?
      let system: System<Int, Int> = {
        let capturedByReducer = Sentinel(freed)
        reducerCapture = capturedByReducer
        return System(
          initial: 0,
          reduceReturning: { (state: Int, event: Int) in
            withExtendedLifetime(capturedByReducer) { state + event }
          },
          feedbacks: [.input(input)],
          monitor: tally.makeMonitor())
      }()
      input.send(1)
      system.stop()
      #expect(reducerCapture == nil, "a stopped system's reducer is still alive")
      input.send(2)
      #expect(system.state == 1)
      #expect(tally.refused.current == 1, "a held, stopped system still reports what it refuses")
    }

    /// Counts events reduced and refused as `systemStopped`, keeping no
    /// state (a recorder's copies would keep the state's sentinel alive).
    final class EventTally: Sendable {
      let reduced = Locked(0)
      let refused = Locked(0)
      /// A monitor that counts; it keeps `witness` alive for as long as it lives.
      func makeMonitor<State: Sendable>(keeping witness: Sentinel? = nil) -> SystemMonitor<State, Int> {
        SystemMonitor { [reduced, refused] activity in
          withExtendedLifetime(witness) {}
          switch activity {
          case .reduced: reduced.withLock { $0 += 1 }
          case .eventDiscarded(_, let reason) where reason == .systemStopped: refused.withLock { $0 += 1 }
          default: break
          }
        }
      }
    }

    @Test(
      "G9 G14 a system released while another thread sends through its Input frees its state and its monitor once"
    )
    func releaseWhileSendingThroughInput() async {
      for _ in 0..<200 {
        let freed = Counter()
        let tally = EventTally()
        let monitorFreed = Counter()
        let input = Input<Int>()
        let start = Gate()
        let system = Box<System<Holding, Int>>()
        system.set(
          System(
            initial: Holding(sentinel: Sentinel(freed)),
            reduceReturning: { (state: Holding, event: Int) in
              var state = state
              state.count += event
              return state
            },
            feedbacks: [.input(input)], monitor: tally.makeMonitor(keeping: Sentinel(monitorFreed))))
        let sends = 200
        let sender = Task.detached {
          await onThreads(1, startingAt: start) { _ in for _ in 0..<sends { input.send(1) } }
        }
        start.open()
        system.set(nil)  // the last handle: released while the thread sends
        await sender.value
        #expect(freed.value == 1)
        // Each event is reduced, or refused and reported while the monitor
        // is there; the released system keeps no monitor to report the rest.
        #expect(tally.reduced.current + tally.refused.current <= sends)
        #expect(monitorFreed.value == 1, "the released system's monitor is still alive through its Input")
      }
    }

    @Test("G14 dropOldest(limit: 0) keeps no event and reports each as bufferFull")
    func dropOldestZeroKeepsNone() async {
      let recorder = ActivityRecorder<Int, Int>()
      let entered = Gate()
      let release = Gate()
      let system = System(
        initial: 0, reduceReturning: { (_: Int, event: Int) in event },
        environment: SystemEnvironment(eventBuffer: .dropOldest(limit: 0)), monitor: recorder.monitor)
      let observation = system.observe { state in
        if state == 1 {  // hold the loop
          entered.open()
          release.waitBlocking()
        }
      }
      let holder = Task.detached { await onThreads(1) { _ in system.send(1) } }
      await entered.wait()
      await onThreads(1) { _ in
        system.send(2)
        system.send(3)
      }
      release.open()
      await holder.value
      #expect(recorder.reducedEvents == [1])
      #expect(recorder.discarded.map(\.event) == [2, 3])
      #expect(recorder.discarded.allSatisfy { $0.reason == .bufferFull })
      #expect(system.state == 1)
      observation.cancel()
    }

    @Test("G14 a negative event buffer limit stops the program with a clear message")
    func negativeLimitIsAProgrammingError() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        let system = System(
          initial: 0, reduceReturning: { (_: Int, event: Int) in event },
          environment: SystemEnvironment(eventBuffer: .dropOldest(limit: -1)))
        system.send(1)
      }
      let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      #expect(message.contains("limit"), "stderr: \(message)")
    }
  }
}

extension Reliability {
  /// G10 for monitors: what a monitor must tolerate, as `SystemMonitor`
  /// documents it.
  @Suite("Hostile monitor")
  struct HostileMonitorTests {
    /// Reports that come from the loop, and refusals, which come from the
    /// sending threads.
    struct Tally: Sendable {
      var insideLoopReports = 0
      var loopOverlaps = 0
      var reduced = 0
      var refused = 0
      var stopped = 0
    }

    @Test("G10 a main-actor system stopped from a background thread calls onStop and its monitor on the main actor")
    @MainActor
    func mainActorSystemTearsDownOnMainActor() async {
      // On the main actor, whichever thread runs it (see MainQueueProbe).
      #expect(MainQueueProbe.isOnMainActor, "the probe does not see the main actor")
      let onMainActor = Locked<[String: Bool]>([:])
      let told = Counter()
      let monitor = SystemMonitor<Int, Int> { activity in
        if case .stopped = activity {
          onMainActor.withLock { $0["monitor"] = MainQueueProbe.isOnMainActor }
          told.add()
        }
      }
      let system = System(
        initial: 0, reduceReturning: { (_: Int, event: Int) in event }, isolation: .mainActor, monitor: monitor)
      let observation = system.observe({ _ in }) {
        onMainActor.withLock { $0["onStop"] = MainQueueProbe.isOnMainActor }
        told.add()
      }
      await onThreads(1) { _ in system.stop() }
      #expect(system.isStopped, "marked stopped when stop() returns")
      await told.wait(untilAtLeast: 2)
      #expect(onMainActor.current == ["monitor": true, "onStop": true])
      observation.cancel()
    }

    @Test(
      "G10 G14 dropNewest(limit: 4), 8 senders and sends after stop(): the loop's reports never overlap, only refusals come from senders, every event is counted"
    )
    func monitorCallsAreAsDocumented() async {
      let perSender = Scale.pick(20_000, sanitized: 2_000)
      let tally = Locked(Tally())
      let monitor = SystemMonitor<Int, Int> { activity in
        switch activity {
        case .eventDiscarded(_, .bufferFull), .eventDiscarded(_, .systemStopped):
          tally.withLock { $0.refused += 1 }
        default:
          tally.withLock {
            $0.insideLoopReports += 1
            if $0.insideLoopReports > 1 { $0.loopOverlaps += 1 }
            if case .reduced = activity { $0.reduced += 1 }
            if case .stopped = activity { $0.stopped += 1 }
          }
          // Widens the window in which a second report from the loop would
          // be seen overlapping this one.
          sched_yield()
          tally.withLock { $0.insideLoopReports -= 1 }
        }
      }
      let system = System(
        initial: 0, reduceReturning: { (state: Int, _: Int) in state + 1 },
        environment: SystemEnvironment(eventBuffer: .dropNewest(limit: 4)), monitor: monitor)
      let start = Gate()
      let halfway = Counter()
      let stopped = Gate()
      async let senders: Void = onThreads(8, startingAt: start) { sender in
        for number in 0..<perSender { system.send(sender * perSender + number) }
        halfway.add()
        stopped.waitBlocking()
        for number in 0..<perSender { system.send(-(sender * perSender + number) - 1) }
      }
      start.open()
      await halfway.wait(untilAtLeast: 8)
      system.stop()
      stopped.open()
      await senders
      let final = tally.current
      #expect(final.loopOverlaps == 0, "the loop's own reports overlapped \(final.loopOverlaps) times")
      #expect(final.stopped == 1)
      #expect(final.reduced + final.refused == 8 * perSender * 2)
      #expect(final.refused >= 8 * perSender, "every send after stop() is refused")
    }
  }
}
