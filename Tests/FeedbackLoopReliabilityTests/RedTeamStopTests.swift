import FeedbackLoop
import Foundation
import Testing

extension Reliability {
  /// Red team: G9 and G14 attacked where the hostile stop suite
  /// does not go: stop() from an observer, a monitor report and an effect's
  /// body; stop from several threads while callbacks send; observers and
  /// `states` sequences made and dropped during a pass and during teardown.
  @Suite("Red team: stop")
  struct RedTeamStopTests {
    typealias Box = HostileStopTests.Box

    @Test(
      "G9 stop() from inside an observer: isStopped at once, no later observer sees the state, its sends are reported")
    func stopInsideObserver() {
      let recorder = ActivityRecorder<Int, Int>()
      let system = System(initial: 0, reduceReturning: { (_: Int, event: Int) in event }, monitor: recorder.monitor)
      let stoppedInside = Locked<Bool?>(nil)
      let laterSaw = Locked<[Int]>([])
      let first = system.observe { [unowned system] state in
        guard state == 1 else { return }
        system.stop()
        stoppedInside.withLock { $0 = system.isStopped }
        system.send(9)
      }
      let second = system.observe { state in laterSaw.withLock { $0.append(state) } }
      system.send(1)
      #expect(stoppedInside.current == true)
      #expect(laterSaw.current == [0], "a later observer saw the state after stop(): \(laterSaw.current)")
      #expect(recorder.reducedEvents == [1])
      #expect(recorder.discarded.map(\.event) == [9])
      #expect(recorder.discarded.map(\.reason) == [.systemStopped])
      first.cancel()
      second.cancel()
    }

    @Test("G9 G10 stop() from inside the monitor's reduced report: no feedback is asked, no effect starts or runs")
    func stopInsideMonitorReport() {
      let harness = Harness()
      let recorder = ActivityRecorder<Int, Int>()
      let box = Box<System<Int, Int>>()
      let bodies = Counter()
      let queried = Counter()
      let stopping = SystemMonitor<Int, Int> { activity in
        if case .reduced(let event, _, _, _) = activity, event == 1 { box.value?.stop() }
      }
      let system = System(
        initial: 0,
        reduceReturning: { (_: Int, event: Int) in event },
        feedbacks: [
          Feedback.query(
            { state -> Int? in
              if state == 1 { queried.add() }
              return state == 1 ? 1 : nil
            }, name: "after"
          ) { _ in .run { _ in bodies.add() } }
        ],
        environment: harness.environment,
        monitor: .combining([recorder.monitor, stopping]))
      box.set(system)
      system.send(1)
      box.set(nil)
      harness.settle()
      #expect(system.isStopped)
      #expect(queried.value == 0, "a feedback was asked for the state after stop() in the monitor")
      #expect(bodies.value == 0, "an effect's body ran after stop() in the monitor")
      #expect(recorder.started.isEmpty, "started after stop(): \(recorder.started)")
      let stops = recorder.all.filter { if case .stopped = $0 { true } else { false } }
      #expect(stops.count == 1)
    }

    @Test("G9 stop() from inside the reducer: no feedback is asked, no observer sees the state, no effect starts")
    func stopInsideReducer() {
      let harness = Harness()
      let recorder = ActivityRecorder<Int, Int>()
      let box = Box<System<Int, Int>>()
      let queried = Counter()
      let observed = Locked<[Int]>([])
      let system = System(
        initial: 0,
        reduceReturning: { (_: Int, event: Int) in
          if event == 1 { box.value?.stop() }
          return event
        },
        feedbacks: [
          Feedback.query(
            { state -> Int? in
              if state == 1 { queried.add() }
              return state == 1 ? 1 : nil
            }
          ) { _ in .run { _ in } }
        ],
        environment: harness.environment,
        monitor: recorder.monitor)
      let observation = system.observe { state in observed.withLock { $0.append(state) } }
      box.set(system)
      system.send(1)
      box.set(nil)
      harness.settle()
      #expect(system.isStopped)
      #expect(queried.value == 0)
      #expect(observed.current == [0])
      #expect(recorder.started.isEmpty)
      observation.cancel()
    }

    @Test("G9 G10 the monitor's reduced report stops a second system: the second stops, the first goes on")
    func monitorStopsAnotherSystem() {
      let harness = Harness()
      let box = Box<System<Int, Int>>()
      let bodies = Counter()
      let other = System(
        initial: 0, reduceReturning: { (_: Int, event: Int) in event },
        feedbacks: [Feedback.query({ $0 == 1 ? 1 : nil }) { _ in .run { _ in bodies.add() } }],
        environment: harness.environment)
      box.set(other)
      // `other` has an effect started and not run yet when the first
      // system's monitor stops it.
      other.send(1)
      let stopping = SystemMonitor<Int, Int> { activity in
        if case .reduced(let event, _, _, _) = activity, event == 1 { box.value?.stop() }
      }
      let first = System(
        initial: 0, reduceReturning: { (_: Int, event: Int) in event },
        feedbacks: [Feedback.query({ $0 == 1 ? 1 : nil }) { _ in .run { _ in bodies.add() } }],
        environment: harness.environment, monitor: stopping)
      first.send(1)
      box.set(nil)
      harness.settle()
      #expect(other.isStopped)
      #expect(!first.isStopped)
      #expect(bodies.value == 1, "only the first system's effect runs")
      first.stop()
    }

    @Test(
      "G9 stop() from inside an effect's body: an effect started and not yet run never runs its body; later sends are reported"
    )
    func stopInsideEffectBody() {
      let harness = Harness()
      let recorder = ActivityRecorder<Int, Int>()
      let box = Box<System<Int, Int>>()
      let laterBodies = Counter()
      let system = System(
        initial: 0,
        reduceReturning: { (_: Int, event: Int) in event },
        feedbacks: [
          Feedback.query({ $0 == 1 ? 1 : nil }, name: "stopper") { _ in
            .run { send in
              send(2)
              box.value?.stop()
              send(3)
            }
          },
          Feedback.query({ $0 >= 2 ? $0 : nil }, name: "later") { _ in
            .run { _ in laterBodies.add() }
          },
        ],
        environment: harness.environment,
        monitor: recorder.monitor)
      box.set(system)
      system.send(1)
      harness.settle()
      box.set(nil)
      #expect(system.isStopped)
      #expect(laterBodies.value == 0, "an effect ran after stop()")
      #expect(system.runningTaskCount == 0)
      // 2 was sent before stop(): it is reduced or reported; 3 was sent after.
      let reduced = recorder.reducedEvents
      let discarded = recorder.discarded.map(\.event)
      #expect(reduced.filter { $0 == 3 }.isEmpty)
      #expect((reduced + discarded).sorted() == [1, 2, 3])
    }

    @Test("G9 stop() from another thread: an effect started and not yet run never runs its body")
    func stopFromAnotherThreadBeforeEffectRuns() {
      let harness = Harness()
      let bodies = Counter()
      let system = System(
        initial: 0, reduceReturning: { (_: Int, event: Int) in event },
        feedbacks: [Feedback.query({ $0 == 1 ? 1 : nil }) { _ in .run { _ in bodies.add() } }],
        environment: harness.environment)
      system.send(1)
      #expect(system.runningTaskCount == 1)
      HostileOrderTests.onThreadAndJoin { system.stop() }
      harness.settle()
      #expect(bodies.value == 0, "an effect ran after stop() from another thread")
      #expect(system.runningTaskCount == 0)
    }

    @Test("G9 stop() from one system's effect body stops a second system whose effect has not run: it never runs")
    func effectBodyStopsAnotherSystem() {
      let harness = Harness()
      let box = Box<System<Int, Int>>()
      let secondBodies = Counter()
      let second = System(
        initial: 0, reduceReturning: { (_: Int, event: Int) in event },
        feedbacks: [Feedback.query({ $0 == 1 ? 1 : nil }) { _ in .run { _ in secondBodies.add() } }],
        environment: harness.environment)
      box.set(second)
      let first = System(
        initial: 0, reduceReturning: { (_: Int, event: Int) in event },
        feedbacks: [Feedback.query({ $0 == 1 ? 1 : nil }) { _ in .run { _ in box.value?.stop() } }],
        environment: harness.environment)
      // The first system's effect is queued ahead of the second's.
      first.send(1)
      second.send(1)
      harness.settle()
      box.set(nil)
      #expect(second.isStopped)
      #expect(secondBodies.value == 0, "the second system's effect ran after stop()")
      first.stop()
    }

    @Test(
      "G9 G14 four threads stop at once while an observer and onStop handlers send: every event reduced or reported, stopped once",
      .timeLimit(.minutes(1)))
    func manyStoppersWhileCallbacksSend() async {
      for _ in 0..<Scale.pick(50, sanitized: 10) {
        let counts = ActivityCounts<Int, Int>()
        let onStops = Counter()
        let system = System(initial: 0, reduceReturning: { (state: Int, _: Int) in state + 1 }, monitor: counts.monitor)
        let sent = Counter()
        let observation = system.observe(
          { [unowned system] state in
            if state < 200 {
              sent.add()
              system.send(1)
            }
          },
          onStop: { [unowned system] in
            onStops.add()
            sent.add()
            system.send(1)
          })
        await onThreads(6) { index in
          if index < 4 {
            system.stop()
          } else {
            for _ in 0..<50 {
              sent.add()
              system.send(1)
            }
          }
        }
        let current = counts.current
        #expect(system.isStopped)
        #expect(current.stopped == 1)
        #expect(onStops.value == 1)
        #expect(current.reduced + current.discarded.values.reduce(0, +) == sent.value)
        #expect(current.discarded.keys.allSatisfy { $0 == .systemStopped })
        observation.cancel()
      }
    }

    @Test("G9 an observer added during a pass sees each later state once; one removed during it sees no later state")
    func observersAddedAndRemovedDuringPass() {
      let system = System(initial: 0, reduceReturning: { (_: Int, event: Int) in event })
      let added = Locked<[Int]>([])
      let removedSaw = Locked<[Int]>([])
      let addedObservation = Locked<StateObservation?>(nil)
      let removed = Locked<StateObservation?>(nil)
      let first = system.observe { [unowned system] state in
        guard state == 1 else { return }
        addedObservation.withLock {
          $0 = system.observe { state in added.withLock { $0.append(state) } }
        }
        removed.current?.cancel()
      }
      removed.withLock { $0 = system.observe { state in removedSaw.withLock { $0.append(state) } } }
      system.send(1)
      system.send(2)
      #expect(added.current == [1, 2], "an observer added during the pass of 1 saw \(added.current)")
      #expect(!removedSaw.current.contains(2), "a removed observer saw a later state: \(removedSaw.current)")
      first.cancel()
      addedObservation.current?.cancel()
      system.stop()
    }

    @Test(
      "G9 states sequences made during teardown end; ones made and cancelled then leave nothing waiting",
      .timeLimit(.minutes(1)))
    func statesDuringTeardown() async {
      let fromMonitor = Locked<StateSequence<Int>?>(nil)
      let fromOnStop = Locked<StateSequence<Int>?>(nil)
      let box = Box<System<Int, Int>>()
      let monitor = SystemMonitor<Int, Int> { activity in
        guard case .stopped = activity, let system = box.value else { return }
        fromMonitor.withLock { $0 = system.states }
        // Made and dropped at once: its termination removes an observer
        // while the teardown runs.
        _ = system.states(buffering: .newest(1))
      }
      let system = System(initial: 0, reduceReturning: { (_: Int, event: Int) in event }, monitor: monitor)
      box.set(system)
      let observation = system.observe(
        { _ in },
        onStop: {
          guard let system = box.value else { return }
          fromOnStop.withLock { $0 = system.states }
          let dropped = system.states
          let task = Task { for await _ in dropped {} }
          task.cancel()
        })
      system.send(1)
      system.stop()
      box.set(nil)
      for sequence in [fromMonitor.current, fromOnStop.current] {
        var seen = 0
        if let sequence { for await _ in sequence { seen += 1 } }
        #expect(seen <= 1)
      }
      #expect(fromMonitor.current != nil)
      #expect(fromOnStop.current != nil)
      _ = observation
    }

    @Test("G8 G9 an Input bound to a stopped system: its events are reported systemStopped, not kept")
    func inputOfStoppedSystem() {
      let recorder = ActivityRecorder<Int, Int>()
      let input = Input<Int>()
      let system = System(
        initial: 0, reduceReturning: { (_: Int, event: Int) in event }, feedbacks: [.input(input)],
        monitor: recorder.monitor)
      input.send(1)
      system.stop()
      input.send(2)
      input.send(3)
      #expect(recorder.reducedEvents == [1])
      #expect(recorder.discarded.map(\.event) == [2, 3])
      #expect(recorder.discarded.allSatisfy { $0.reason == .systemStopped })
    }
  }
}
