import FeedbackLoop
import Foundation
import Testing

extension Reliability {
  /// Red team: G2 attacked through rings of systems, monitors and
  /// threads beyond the cases of the hostile order suite. Every case is
  /// deterministic except the threaded one, which checks only what must hold
  /// in every interleaving (nothing lost, nothing twice, each sender's order).
  @Suite("Red team: order")
  struct RedTeamOrderTests {
    /// A system whose state is the last event.
    static func lastEvent() -> System<Int, Int> {
      System(initial: -1, reduceReturning: { (_: Int, event: Int) in event })
    }

    @Test("G2 a three-system ring on one thread: the loop's own queued event goes before the one relayed back to it")
    func threeSystemRing() {
      let states = Locked<[Int]>([])
      let a = Self.lastEvent()
      let b = Self.lastEvent()
      let c = Self.lastEvent()
      let toA = b.observe { state in if state == 2 { c.send(2) } }
      let toC = c.observe { state in if state == 2 { a.send(2) } }
      let observation = a.observe { state in
        states.withLock { $0.append(state) }
        guard state == 0 else { return }
        a.send(1)
        b.send(2)  // b drains here, sends to c, which drains here, sends 2 to a
      }
      a.send(0)
      #expect(states.current == [-1, 0, 1, 2])
      observation.cancel()
      toA.cancel()
      toC.cancel()
      a.stop()
      b.stop()
      c.stop()
    }

    @Test("G2 sends from a monitor's reduced report through a second system keep the order they were sent in")
    func monitorRelaysThroughSecondSystem() {
      let box = HostileStopTests.Box<System<Int, Int>>()
      let relay = Self.lastEvent()
      let relayObservation = relay.observe { state in
        if state >= 0 { box.value?.send(state + 100) }
      }
      let recorder = ActivityRecorder<Int, Int>()
      let relaying = SystemMonitor<Int, Int> { activity in
        // On 0: one event to itself, then one through the relay; the first
        // was sent first, so it is reduced first.
        if case .reduced(let event, _, _, _) = activity, event == 0 {
          box.value?.send(1)
          relay.send(2)
        }
      }
      let system = System(
        initial: -1, reduceReturning: { (_: Int, event: Int) in event },
        monitor: .combining([recorder.monitor, relaying]))
      box.set(system)
      system.send(0)
      #expect(recorder.reducedEvents == [0, 1, 102])
      box.set(nil)
      relayObservation.cancel()
      system.stop()
      relay.stop()
    }

    @Test("G2 an effect's answer and an observer's relay through a second system: sent first, reduced first")
    func effectAnswerAndObserverRelay() {
      let harness = Harness()
      let recorder = ActivityRecorder<Int, Int>()
      let box = HostileStopTests.Box<System<Int, Int>>()
      let relay = Self.lastEvent()
      let relayObservation = relay.observe { state in
        if state == 5 { box.value?.send(5) }
      }
      let system = System(
        initial: 0,
        reduceReturning: { (_: Int, event: Int) in event },
        feedbacks: [
          // An async effect, run by the test's executor: its events come back
          // from the executor's thread (this one), through the inbox.
          Feedback.query({ $0 == 1 ? 1 : nil }, name: "answer") { _ in
            .run { send in
              send(2)
              relay.send(5)
            }
          }
        ],
        environment: harness.environment,
        monitor: recorder.monitor)
      box.set(system)
      system.send(1)
      harness.settle()
      #expect(recorder.reducedEvents == [1, 2, 5])
      #expect(recorder.discarded.isEmpty, "discarded: \(recorder.discarded.map(\.event))")
      box.set(nil)
      relayObservation.cancel()
      system.stop()
      relay.stop()
    }

    @Test(
      "G2 four threads send to a ring of two systems whose observers relay: nothing lost, nothing twice, each sender's order kept",
      .timeLimit(.minutes(1)))
    func threadsIntoRing() async {
      let senders = 4
      let perSender = Scale.pick(2_000, sanitized: 500)
      let seenByB = Locked<[Int]>([])
      let a = Self.lastEvent()
      let b = System(
        initial: -1,
        reduceReturning: { (_: Int, event: Int) in
          seenByB.withLock { $0.append(event) }
          return event
        })
      // Each state of a goes on to b, from a's loop thread, which may be in
      // b's loop already (b's observer sends back to a for odd rounds).
      let forward = a.observe { state in if state >= 0 { b.send(state) } }
      let back = b.observe { state in
        if state >= 0, state % 2 == 0, state < senders * perSender * 10 { a.send(state * 10 + 1) }
      }
      await onThreads(senders) { sender in
        for index in 0..<perSender { a.send((sender * perSender + index) * 2) }
      }
      // The threads have returned, and a send that returned has been drained
      // by whoever owned the loop (own isolation); wait for the relays too.
      let expected = senders * perSender * 2
      var seen = seenByB.current
      for _ in 0..<10_000 where seen.count < expected {
        await Task.yield()
        seen = seenByB.current
      }
      #expect(seen.count == expected)
      #expect(Set(seen).count == seen.count, "an event reached b twice")
      for sender in 0..<senders {
        let own = seen.filter { $0 % 2 == 0 && $0 / 2 / perSender == sender && $0 < senders * perSender * 2 }
        #expect(own == own.sorted(), "sender \(sender)'s events out of order")
      }
      forward.cancel()
      back.cancel()
      a.stop()
      b.stop()
    }
  }
}
