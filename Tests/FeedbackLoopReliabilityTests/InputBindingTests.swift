import FeedbackLoop
import Foundation
import Testing

extension Reliability {
  /// G8: an ``Input`` bound again (to a second system, or to a new one after
  /// its first was released) sends to the later binding only. It used to
  /// hit an `assertionFailure` in debug builds and keep sending to the first.
  @Suite("Input bindings")
  struct InputBindingTests {
    @Test("G8 an Input bound a second time sends to the later system only; the earlier one keeps what came before")
    func laterBindingWins() {
      let input = Input<Int>()
      let first = ActivityRecorder<Int, Int>()
      let second = ActivityRecorder<Int, Int>()
      let harness = Harness()
      let a = System(
        initial: 0, reduceReturning: { (_: Int, event: Int) in event }, feedbacks: [.input(input)],
        monitor: first.monitor)
      input.send(1)
      let b = System(
        initial: 0, reduceReturning: { (_: Int, event: Int) in event }, feedbacks: [.input(input, name: "moved")],
        environment: harness.environment, monitor: second.monitor)
      input.send(2)
      input.send(3)
      #expect(first.reducedEvents == [1])
      #expect(second.reducedEvents == [2, 3])
      #expect(harness.logged.current.contains { $0.hasPrefix("notice") && $0.contains("sends here only") })
      a.stop()
      input.send(4)
      #expect(second.reducedEvents == [2, 3, 4], "stopping the earlier system does not stop the input")
      b.stop()
    }

    @Test("G8 G9 an Input rebound after its system was released sends to the new system")
    func rebindAfterRelease() {
      let input = Input<Int>()
      let released = ActivityRecorder<Int, Int>()
      do {
        let system = System(
          initial: 0, reduceReturning: { (_: Int, event: Int) in event }, feedbacks: [.input(input)],
          monitor: released.monitor)
        input.send(1)
        #expect(system.state == 1)
      }
      input.send(9)
      // Before the rebinding: dropped, as the released system keeps no
      // monitor to report it to (an Input keeps nothing of it alive, G9).
      #expect(released.discarded.isEmpty)
      let recorder = ActivityRecorder<Int, Int>()
      let harness = Harness()
      let next = System(
        initial: 0, reduceReturning: { (_: Int, event: Int) in event }, feedbacks: [.input(input)],
        environment: harness.environment, monitor: recorder.monitor)
      #expect(harness.logged.current.contains { $0.contains("sends here only") }, "the rebinding is logged")
      input.send(2)
      #expect(recorder.reducedEvents == [2])
      #expect(next.state == 2)
      #expect(released.reducedEvents == [1])
      #expect(released.discarded.isEmpty)
      next.stop()
    }

    @Test("G8 events kept before the first binding go to it, not to a later one")
    func keptEventsGoToTheFirstBinding() {
      let input = Input<Int>()
      input.send(1)
      input.send(2)
      let first = ActivityRecorder<Int, Int>()
      let second = ActivityRecorder<Int, Int>()
      let a = System(
        initial: 0, reduceReturning: { (_: Int, event: Int) in event }, feedbacks: [.input(input)],
        monitor: first.monitor)
      let harness = Harness()
      let b = System(
        initial: 0, reduceReturning: { (_: Int, event: Int) in event }, feedbacks: [.input(input)],
        environment: harness.environment, monitor: second.monitor)
      #expect(harness.logged.current.contains { $0.contains("sends here only") }, "the rebinding is logged")
      input.send(3)
      #expect(first.reducedEvents == [1, 2])
      #expect(second.reducedEvents == [3])
      a.stop()
      b.stop()
    }

    @Test(
      "G8 G2 G14 an Input rebound while four threads send through it: every event reduced or reported by exactly one system, each sender's in order",
      .timeLimit(.minutes(1)))
    func rebindWhileThreadsSend() async {
      for _ in 0..<Scale.pick(20, sanitized: 5) {
        let input = Input<Int>()
        let counts = (0..<4).map { _ in ActivityRecorder<Int, Int>() }
        let systems = Locked<[System<Int, Int>]>([])
        // Keeps the rebindings' notices, which a passing run does not print.
        let harness = Harness()
        @Sendable func bind(_ index: Int) {
          let system = System(
            initial: 0, reduceReturning: { (_: Int, event: Int) in event }, feedbacks: [.input(input)],
            environment: harness.environment, monitor: counts[index].monitor)
          systems.withLock { $0.append(system) }
        }
        bind(0)
        let perSender = Scale.pick(500, sanitized: 100)
        await onThreads(5) { index in
          if index == 4 {
            // Rebinds three times, stopping one of the earlier systems.
            for next in 1...3 {
              bind(next)
              if next == 2 { systems.current[0].stop() }
            }
          } else {
            for value in 0..<perSender { input.send(index * 1_000_000 + value) }
          }
        }
        let reduced = counts.flatMap(\.reducedEvents)
        let discarded = counts.flatMap { $0.discarded.map(\.event) }
        #expect(reduced.count + discarded.count == 4 * perSender)
        #expect(Set(reduced + discarded).count == 4 * perSender, "an event was reduced or reported twice")
        #expect(counts.allSatisfy { $0.discarded.allSatisfy { $0.reason == .systemStopped } })
        for recorder in counts {
          for sender in 0..<4 {
            let mine = recorder.reducedEvents.filter { $0 / 1_000_000 == sender }
            #expect(mine == mine.sorted(), "a sender's events were reduced out of order")
          }
        }
        for system in systems.current { system.stop() }
      }
    }
  }
}
