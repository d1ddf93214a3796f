import FeedbackLoop
import Foundation
import Testing

extension Reliability {
  /// Red team: the reducer is released by the teardown (G9), so nothing may
  /// call it after a stop, wherever the stop comes from: the reducer itself,
  /// another system it sends to, other threads sending through an Input, a
  /// monitor's report; and a stop from any of them must not wait for the
  /// reduction it is called from.
  @Suite("Red team: reducer release")
  struct RedTeamReducerReleaseTests {
    typealias Box = HostileStopTests.Box

    @Test(
      "G9 stop() reached from the system's own reducer through another system's inline loop stops it without waiting for that reduction",
      .timeLimit(.minutes(1)))
    func stopFromOwnReducerThroughAnotherSystem() {
      let recorder = ActivityRecorder<Int, Int>()
      let box = Box<System<Int, Int>>()
      let inner = System<Int, Int>(initial: 0, reduce: { state, event in state = event })
      let observation = inner.observe { state in if state == 1 { box.value?.stop() } }
      let system = System<Int, Int>(
        initial: 0,
        reduce: { state, event in
          state += event
          inner.send(event)
        },
        monitor: recorder.monitor)
      box.set(system)
      system.send(1)
      #expect(system.isStopped)
      system.send(2)
      #expect(recorder.reducedEvents == [1])
      #expect(recorder.discarded.map(\.event) == [2])
      box.set(nil)
      observation.cancel()
      inner.stop()
    }

    @Test(
      "G9 the last reference released from the system's own reducer through another system's inline loop tears down once the reducer returns",
      .timeLimit(.minutes(1)))
    func releaseFromOwnReducerThroughAnotherSystem() {
      let reductions = Counter()
      let freed = Counter()
      let box = Box<System<Int, Int>>()
      let inner = System<Int, Int>(initial: 0, reduce: { state, event in state = event })
      let observation = inner.observe { state in if state == 1 { box.set(nil) } }
      let input = Input<Int>()
      do {
        let sentinel = Sentinel(freed)
        let system = System<Int, Int>(
          initial: 0,
          reduce: { state, event in
            _ = sentinel
            reductions.add()
            state += event
            inner.send(event)
          },
          feedbacks: [.input(input)])
        box.set(system)
      }
      input.send(1)
      #expect(freed.value == 1, "the reducer's captures outlived the release")
      input.send(2)
      #expect(reductions.value == 1)
      observation.cancel()
      inner.stop()
    }

    /// Takes the system out of `box` and drops it outside the box's lock,
    /// where its teardown may call back into code that reads the box.
    static func release(_ box: Box<System<Int, Int>>) {
      let taken = box.cell.withLock { value -> System<Int, Int>? in
        defer { value = nil }
        return value
      }
      _ = consume taken
    }

    @Test(
      "G9 threads sending through an Input while another stops and releases the system: no reduction begins after stop() returned",
      .timeLimit(.minutes(1)))
    func sendsThroughInputRacingWithStopAndRelease() {
      for _ in 0..<100 {
        let input = Input<Int>()
        let stopReturned = Locked(false)
        let reducedAfterStop = Counter()
        let freed = Counter()
        let box = Box<System<Int, Int>>()
        do {
          let sentinel = Sentinel(freed)
          box.set(
            System<Int, Int>(
              initial: 0,
              reduce: { state, event in
                _ = sentinel
                if stopReturned.current { reducedAfterStop.add() }
                state &+= event
              },
              feedbacks: [.input(input)],
              monitor: SystemMonitor { _ in }))
        }
        DispatchQueue.concurrentPerform(iterations: 4) { index in
          if index == 0 {
            box.value?.stop()
            stopReturned.withLock { $0 = true }
            Self.release(box)
          } else {
            for event in 0..<200 { input.send(event) }
          }
        }
        input.send(1)
        #expect(reducedAfterStop.value == 0, "the reducer ran after stop() returned")
        #expect(freed.value == 1, "the reducer's captures outlived the released system")
      }
    }

    @Test(
      "G9 G14 a monitor that stops and releases a bounded system from its bufferFull report, while threads send: nothing is reduced after stop(), nothing crashes",
      .timeLimit(.minutes(1)))
    func monitorStopsAndReleasesOnBufferFullWhileThreadsSend() {
      for _ in 0..<100 {
        let input = Input<Int>()
        let box = Box<System<Int, Int>>()
        let stopReturned = Locked(false)
        let reducedAfterStop = Counter()
        let refusalsResent = Locked(false)
        let monitor = SystemMonitor<Int, Int> { activity in
          switch activity {
          case .eventDiscarded(_, .bufferFull):
            box.value?.stop()
            stopReturned.withLock { $0 = true }
            Self.release(box)
            input.send(-1)
          case .eventDiscarded(_, .systemStopped):
            // Once: every refused send is reported again.
            if refusalsResent.withLock({ sent in
              defer { sent = true }; return !sent
            }) {
              input.send(-2)
            }
          default:
            break
          }
        }
        box.set(
          System<Int, Int>(
            initial: 0,
            reduce: { state, event in
              if stopReturned.current { reducedAfterStop.add() }
              state &+= event
            },
            feedbacks: [.input(input)],
            environment: SystemEnvironment(eventBuffer: .dropNewest(limit: 1)),
            monitor: monitor))
        DispatchQueue.concurrentPerform(iterations: 3) { _ in
          for event in 0..<300 { input.send(event) }
        }
        Self.release(box)
        input.send(1)
        #expect(reducedAfterStop.value == 0, "the reducer ran after stop() returned")
      }
    }

    @Test(
      "G9 a reducer that stops its own system, then sends to it: the send is reported systemStopped, nothing else is reduced",
      .timeLimit(.minutes(1)))
    func reducerStopsThenSends() {
      let recorder = ActivityRecorder<Int, Int>()
      let box = Box<System<Int, Int>>()
      let reductions = Counter()
      let system = System<Int, Int>(
        initial: 0,
        reduce: { state, event in
          reductions.add()
          state = event
          box.value?.stop()
          box.value?.send(event + 10)
        },
        monitor: recorder.monitor)
      box.set(system)
      system.send(1)
      system.send(2)
      #expect(system.isStopped)
      #expect(reductions.value == 1)
      #expect(recorder.discarded.map(\.event) == [11, 2])
      #expect(recorder.discarded.allSatisfy { $0.reason == .systemStopped })
      box.set(nil)
    }

    enum StopDuringStart: CaseIterable, Sendable {
      /// A keyed feedback's requests, on the initial state.
      case keyedRequests
      /// The monitor, on its `.started` report.
      case monitorStarted
    }

    @Test(
      "G9 stop() during the start, after a keyed feedback sent events at once: they are reported systemStopped, never reduced; no later keyed effect starts",
      .timeLimit(.minutes(1)), arguments: StopDuringStart.allCases)
    @MainActor
    func stopDuringStartAfterImmediateEvents(_ source: StopDuringStart) {
      let harness = Harness()
      let recorder = ActivityRecorder<Int, Int>()
      let box = Box<System<Int, Int>>()
      let laterRequests = Counter()
      let bodies = Counter()
      let stopping = SystemMonitor<Int, Int> { activity in
        if case .started = activity, source == .monitorStarted { box.value?.stop() }
      }
      let system = HostileStopTests.mainActorSystemStartedElsewhere(
        feedbacks: [
          .requests({ (_: Int) in Set([5]) }) { request in .send(request) },
          .requests({ (_: Int) -> Set<Int> in
            if source == .keyedRequests { box.value?.stop() }
            return []
          }) { _ in .none },
          .requests({ (_: Int) -> Set<Int> in
            laterRequests.add()
            return [1]
          }) { _ in .run { _ in bodies.add() } },
        ],
        environment: harness.environment, monitor: .combining([recorder.monitor, stopping]))
      box.set(system)
      system.processQueuedEvents()
      box.set(nil)
      harness.settle()
      system.processQueuedEvents()
      #expect(system.isStopped)
      #expect(recorder.reducedEvents.isEmpty, "an event sent during the start was reduced after stop()")
      // The `.started` report comes before any handler: nothing was sent.
      #expect(recorder.discarded.map(\.event) == (source == .monitorStarted ? [] : [5]))
      #expect(recorder.discarded.allSatisfy { $0.reason == .systemStopped })
      #expect(laterRequests.value == 0, "a later feedback was asked for the initial state after stop()")
      #expect(bodies.value == 0, "an effect's body ran after stop()")
    }

    @Test(
      "G9 G10 threads sending through the Input of a main-actor system while the main actor stops and releases it: no reduction after stop() returned",
      .timeLimit(.minutes(1)))
    @MainActor
    func mainActorSystemSendsRacingWithStopAndRelease() async {
      for _ in 0..<50 {
        let input = Input<Int>()
        let stopReturned = Locked(false)
        let reducedAfterStop = Counter()
        var system: System<Int, Int>? = System<Int, Int>(
          initial: 0,
          reduce: { state, event in
            if stopReturned.current { reducedAfterStop.add() }
            state &+= event
          },
          feedbacks: [.input(input)], isolation: .mainActor)
        let senders = DispatchGroup()
        for _ in 0..<3 {
          senders.enter()
          Thread {
            for event in 0..<200 { input.send(event) }
            senders.leave()
          }.start()
        }
        system?.processQueuedEvents()
        system?.stop()
        stopReturned.withLock { $0 = true }
        system = nil
        senders.wait()
        // The drains the senders scheduled on the main actor run now.
        for _ in 0..<10 { await Task.yield() }
        #expect(reducedAfterStop.value == 0, "the reducer ran after stop() returned")
        _ = system
      }
    }

    @Test(
      "G9 an observer that stops a starting system, whose Input kept events before the binding: they are reported systemStopped, never reduced",
      .timeLimit(.minutes(1)))
    @MainActor
    func observerStopsStartingSystemWithPendingInputEvents() {
      let recorder = ActivityRecorder<Int, Int>()
      let input = Input<Int>()
      input.send(1)
      input.send(2)
      let system = HostileStopTests.mainActorSystemStartedElsewhere(
        feedbacks: [.input(input)], environment: Harness().environment, monitor: recorder.monitor)
      let later = Counter()
      let stopper = system.observe { [unowned system] _ in
        system.stop()
        input.send(3)
      }
      let second = system.observe { _ in later.add() }
      system.processQueuedEvents()
      #expect(system.isStopped)
      #expect(recorder.reducedEvents.isEmpty, "an event was reduced after stop()")
      // 3, sent after stop(), is refused at once; 1 and 2 go with the teardown.
      #expect(recorder.discarded.map(\.event) == [3, 1, 2])
      #expect(recorder.discarded.allSatisfy { $0.reason == .systemStopped })
      #expect(later.value == 0, "a later observer was called after stop()")
      stopper.cancel()
      second.cancel()
    }
  }
}
