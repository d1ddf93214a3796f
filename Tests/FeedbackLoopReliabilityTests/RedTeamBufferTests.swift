import FeedbackLoop
import Foundation
import Testing

extension Reliability {
  /// Red team: G14 and G10 attacked at the edges of the event
  /// buffer (limits 0 and 1 under every policy, the loop's own sends and
  /// another thread's) and through the monitor's documented threads.
  @Suite("Red team: buffers and the monitor's threads")
  struct RedTeamBufferTests {
    struct Case: Sendable, CustomTestStringConvertible {
      let policy: EventBufferPolicy
      /// States after 0, when the loop, busy with 0, is sent 1, 2 and 3.
      let states: [Int]
      let discarded: [Int]
      var testDescription: String { "\(policy)" }
    }

    static let cases: [Case] = [
      Case(policy: .unbounded, states: [0, 1, 2, 3], discarded: []),
      Case(policy: .dropNewest(limit: 0), states: [0], discarded: [1, 2, 3]),
      Case(policy: .dropNewest(limit: 1), states: [0, 1], discarded: [2, 3]),
      Case(policy: .dropOldest(limit: 0), states: [0], discarded: [1, 2, 3]),
      Case(policy: .dropOldest(limit: 1), states: [0, 3], discarded: [1, 2]),
    ]

    enum Sender: String, CaseIterable, Sendable { case loop, otherThread, otherSystem }

    @Test(
      "G14 a bounded buffer counts every sender while the loop is busy, the loop's own sends too: kept or reported bufferFull, as the policy says",
      arguments: cases, Sender.allCases)
    func boundedBuffer(_ expected: Case, sender: Sender) {
      let recorder = ActivityRecorder<Int, Int>()
      let relay = System(initial: -1, reduceReturning: { (_: Int, event: Int) in event })
      let box = HostileStopTests.Box<System<Int, Int>>()
      let relayObservation = relay.observe { state in if state > 0 { box.value?.send(state) } }
      let system = System(
        initial: -1, reduceReturning: { (_: Int, event: Int) in event },
        environment: SystemEnvironment(eventBuffer: expected.policy),
        monitor: recorder.monitor)
      box.set(system)
      let observation = system.observe { state in
        guard state == 0 else { return }
        for event in 1...3 {
          switch sender {
          case .loop: box.value?.send(event)
          case .otherThread: HostileOrderTests.onThreadAndJoin { box.value?.send(event) }
          case .otherSystem: relay.send(event)
          }
        }
      }
      system.send(0)
      #expect(recorder.states == expected.states)
      #expect(recorder.discarded.map(\.event) == expected.discarded)
      #expect(recorder.discarded.allSatisfy { $0.reason == .bufferFull })
      observation.cancel()
      relayObservation.cancel()
      box.set(nil)
      system.stop()
      relay.stop()
    }

    @Test(
      "G14 a bounded buffer counts a feedback's immediate answers and the reducer's own sends",
      arguments: [EventBufferPolicy.dropNewest(limit: 1), .dropOldest(limit: 1)])
    func boundedBufferCountsFeedbackAndReducerSends(_ policy: EventBufferPolicy) {
      let recorder = ActivityRecorder<Int, Int>()
      let box = HostileStopTests.Box<System<Int, Int>>()
      // 1 makes the reducer send 10 and 11; the state 1 makes a feedback
      // answer 20 and 21 at once. Four events wait for one place.
      let system = System(
        initial: 0,
        reduceReturning: { (_: Int, event: Int) in
          if event == 1 {
            box.value?.send(10)
            box.value?.send(11)
          }
          return event
        },
        feedbacks: [Feedback.query({ $0 == 1 ? 1 : nil }) { _ in .send(contentsOf: [20, 21]) }],
        environment: SystemEnvironment(eventBuffer: policy),
        monitor: recorder.monitor)
      box.set(system)
      system.send(1)
      let kept = policy == .dropNewest(limit: 1) ? 10 : 21
      #expect(recorder.reducedEvents == [1, kept])
      #expect((recorder.reducedEvents + recorder.discarded.map(\.event)).sorted() == [1, 10, 11, 20, 21])
      #expect(recorder.discarded.allSatisfy { $0.reason == .bufferFull })
      box.set(nil)
      system.stop()
    }

    @Test("G14 G9 the loop's own sends to a bounded buffer, then stop() from the loop: each is reported once")
    func boundedBufferLoopSendsThenStop() {
      let recorder = ActivityRecorder<Int, Int>()
      let box = HostileStopTests.Box<System<Int, Int>>()
      let system = System(
        initial: 0, reduceReturning: { (_: Int, event: Int) in event },
        environment: SystemEnvironment(eventBuffer: .dropNewest(limit: 1)), monitor: recorder.monitor)
      box.set(system)
      let observation = system.observe { state in
        guard state == 1, let system = box.value else { return }
        for event in 2...4 { system.send(event) }
        system.stop()
        system.send(5)
      }
      system.send(1)
      #expect(recorder.reducedEvents == [1])
      let discarded = recorder.discarded
      #expect(discarded.map(\.event).sorted() == [2, 3, 4, 5])
      #expect(discarded.filter { $0.reason == .bufferFull }.map(\.event).sorted() == [3, 4])
      #expect(discarded.filter { $0.reason == .systemStopped }.map(\.event).sorted() == [2, 5])
      observation.cancel()
      box.set(nil)
    }

    @Test(
      "G14 two systems sending to each other from their loops, both bounded: each loop's sends to itself are bounded too"
    )
    func boundedBuffersAcrossTwoSystems() {
      let recorderA = ActivityRecorder<Int, Int>()
      let boxA = HostileStopTests.Box<System<Int, Int>>()
      let boxB = HostileStopTests.Box<System<Int, Int>>()
      let a = System(
        initial: 0, reduceReturning: { (_: Int, event: Int) in event },
        environment: SystemEnvironment(eventBuffer: .dropNewest(limit: 1)), monitor: recorderA.monitor)
      let b = System(initial: 0, reduceReturning: { (_: Int, event: Int) in event })
      boxA.set(a)
      boxB.set(b)
      // A's observer, busy with 1, sends 2 to A and 3 to B; B's observer
      // (on A's thread) relays 3 to A and A sends 4 to itself: A keeps 2 only.
      let observationA = a.observe { state in
        guard state == 1 else { return }
        boxA.value?.send(2)
        boxB.value?.send(3)
        boxA.value?.send(4)
      }
      let observationB = b.observe { state in if state == 3 { boxA.value?.send(state) } }
      a.send(1)
      #expect(recorderA.reducedEvents == [1, 2])
      #expect(recorderA.discarded.map(\.event) == [3, 4])
      #expect(recorderA.discarded.allSatisfy { $0.reason == .bufferFull })
      observationA.cancel()
      observationB.cancel()
      boxA.set(nil)
      boxB.set(nil)
      a.stop()
      b.stop()
    }

    @Test(
      "G10 the monitor is never entered concurrently for anything but refusals, with bounded buffers and eight senders",
      .timeLimit(.minutes(1)),
      arguments: [EventBufferPolicy.dropNewest(limit: 1), .dropOldest(limit: 1), .dropOldest(limit: 0)])
    func monitorNotReenteredButForRefusals(_ policy: EventBufferPolicy) async {
      let inside = Locked(0)
      let overlaps = Locked(0)
      let monitor = SystemMonitor<Int, Int> { activity in
        if case .eventDiscarded(_, .bufferFull) = activity { return }
        if case .eventDiscarded(_, .systemStopped) = activity { return }
        let others = inside.withLock { count in
          count += 1
          return count - 1
        }
        if others > 0 { overlaps.withLock { $0 += 1 } }
        // A little work inside, so that an overlap has room to show.
        for _ in 0..<50 { _ = inside.current }
        inside.withLock { $0 -= 1 }
      }
      let system = System(
        initial: 0, reduceReturning: { (state: Int, _: Int) in state &+ 1 },
        environment: SystemEnvironment(eventBuffer: policy), monitor: monitor)
      await onThreads(8) { index in
        for _ in 0..<Scale.pick(5_000, sanitized: 1_000) { system.send(1) }
        if index == 0 { system.stop() }
        for _ in 0..<100 { system.send(1) }
      }
      #expect(overlaps.current == 0, "the monitor was entered concurrently \(overlaps.current) times for loop reports")
    }

    @Test("G14 dropOldest(limit: 0) on a main-actor system sent from another thread keeps none and reports each")
    @MainActor
    func dropOldestZeroMainActor() async {
      let recorder = ActivityRecorder<Int, Int>()
      let system = System(
        initial: 0, reduceReturning: { (_: Int, event: Int) in event }, isolation: .mainActor,
        environment: SystemEnvironment(eventBuffer: .dropOldest(limit: 0)), monitor: recorder.monitor)
      // Off the main actor, every send waits for the hop: none can wait.
      await Task.detached { for event in 1...3 { system.send(event) } }.value
      system.processQueuedEvents()
      #expect(recorder.reducedEvents == [])
      #expect(recorder.discarded.map(\.event) == [1, 2, 3])
      system.stop()
    }
  }
}
