import FeedbackLoop
import Foundation
import Testing

extension Reliability {
  /// G2 under hostile use: an event queued before another is reduced before
  /// it, whether the later one comes from another thread or from another
  /// system on the same thread (the rule is written at the top of
  /// SystemCore.swift and in the Guarantees article).
  ///
  /// Each case is deterministic: the later event is sent only after the
  /// earlier `send` returned (a thread joined, a call made on one thread).
  @Suite("Hostile order")
  struct HostileOrderTests {
    /// A system whose state is the last event, with every state recorded.
    static func recordingStates(_ states: Locked<[Int]>) -> @Sendable (Int) -> Void {
      { state in states.withLock { $0.append(state) } }
    }

    /// Runs `body` on a new thread and blocks until it returned.
    static func onThreadAndJoin(_ body: @escaping @Sendable () -> Void) {
      let done = DispatchSemaphore(value: 0)
      let thread = Thread {
        body()
        done.signal()
      }
      thread.start()
      done.wait()
    }

    @Test("G2 an event the loop queued is reduced before one another thread sends after it")
    func loopEventGoesBeforeLaterEventFromAnotherThread() {
      let states = Locked<[Int]>([])
      let system = System(initial: 0, reduceReturning: { (_: Int, event: Int) in event })
      let observation = system.observe { [unowned system] state in
        states.withLock { $0.append(state) }
        guard state == 0 else { return }
        // The loop's thread queues 1; then another thread sends 2, and its
        // send has returned before this observer returns.
        system.send(1)
        Self.onThreadAndJoin { system.send(2) }
      }
      #expect(states.current == [0, 1, 2])
      observation.cancel()
      system.stop()
    }

    @Test(
      "G2 the loop's own send goes behind every event other threads queued before it, not between them"
    )
    func loopSendGoesBehindTheBatchItTook() {
      let states = Locked<[Int]>([])
      let system = System(initial: -1, reduceReturning: { (_: Int, event: Int) in event })
      let observation = system.observe { [unowned system] state in
        states.withLock { $0.append(state) }
        switch state {
        case 0:
          // The loop is busy here: another thread's two sends wait in the
          // inbox.
          Self.onThreadAndJoin {
            system.send(10)
            system.send(11)
          }
        case 10:
          // Sent while 11 still waits.
          system.send(12)
        default:
          break
        }
      }
      system.send(0)
      #expect(states.current == [-1, 0, 10, 11, 12])
      observation.cancel()
      system.stop()
    }

    @Test("G2 an event the loop queued is reduced before one a second system relays on the same thread")
    func loopEventGoesBeforeLaterEventRelayedThroughAnotherSystem() {
      let states = Locked<[Int]>([])
      let relayTarget = Locked<System<Int, Int>?>(nil)
      let relay = System(initial: -1, reduceReturning: { (_: Int, event: Int) in event })
      let relayObservation = relay.observe { state in
        if state == 2 { relayTarget.current?.send(2) }
      }
      let system = System(initial: -1, reduceReturning: { (_: Int, event: Int) in event })
      relayTarget.withLock { $0 = system }
      let observation = system.observe { [unowned system] state in
        states.withLock { $0.append(state) }
        guard state == 0 else { return }
        system.send(1)
        relay.send(2)  // idle: drains on this thread, and sends 2 to `system`
      }
      system.send(0)
      #expect(states.current == [-1, 0, 1, 2])
      observation.cancel()
      relayObservation.cancel()
      relayTarget.withLock { $0 = nil }
      system.stop()
      relay.stop()
    }

    @Test(
      "G2 G4 a feedback's answer is not overtaken, nor dropped as stale, by an event a later feedback relays through another system"
    )
    func feedbackAnswerIsNotDroppedByRelayedEvent() {
      let recorder = ActivityRecorder<Int, Int>()
      let relayTarget = Locked<System<Int, Int>?>(nil)
      let relay = System(initial: -1, reduceReturning: { (_: Int, event: Int) in event })
      let relayObservation = relay.observe { state in
        if state == 2 { relayTarget.current?.send(2) }
      }
      let system = System(
        initial: -1,
        reduceReturning: { (_: Int, event: Int) in event },
        feedbacks: [
          // Answers state 0 at once; its query is gone on any other state,
          // so an event reduced before its answer would cancel it (G4).
          Feedback.query({ $0 == 0 ? 0 : nil }, name: "answer") { _ in .send(1) },
          // Relays through `relay`, synchronously, on the loop's thread.
          Feedback.query(
            { state -> Int? in
              if state == 0 { relay.send(2) }
              return nil
            }, name: "relay"
          ) { _ in .none },
        ],
        monitor: recorder.monitor)
      relayTarget.withLock { $0 = system }
      system.send(0)
      #expect(recorder.states == [0, 1, 2])
      #expect(recorder.discarded.isEmpty, "discarded: \(recorder.discarded.map(\.event))")
      #expect(recorder.cancelled.isEmpty, "cancelled: \(recorder.cancelled)")
      relayObservation.cancel()
      relayTarget.withLock { $0 = nil }
      system.stop()
      relay.stop()
    }

    @Test("G2 events another thread queued before the loop's own send are reduced before it")
    func eventsFromAnotherThreadQueuedFirstGoFirst() {
      let states = Locked<[Int]>([])
      let system = System(initial: 0, reduceReturning: { (_: Int, event: Int) in event })
      let observation = system.observe { [unowned system] state in
        states.withLock { $0.append(state) }
        guard state == 0 else { return }
        // Another thread's 1 is queued first; the loop's own 2 and 3 come
        // after it, whichever queue they wait in.
        Self.onThreadAndJoin { system.send(1) }
        system.send(2)
        Self.onThreadAndJoin { system.send(3) }
        system.send(4)
      }
      #expect(states.current == [0, 1, 2, 3, 4])
      observation.cancel()
      system.stop()
    }

    /// Events from eight threads, and the loop's answers to them.
    struct Senders: Sendable {
      enum Event: Sendable {
        case sent(sender: Int, number: Int)
        /// What the loop had seen of each sender's progress when it
        /// answered: each of those events was sent before the answer.
        case answer(seen: [Int])
      }

      var next: [Int]
      var reduced = 0
      var answers = 0
      var failures: [String] = []

      init(senders: Int) { next = Array(repeating: 0, count: senders) }

      mutating func fail(_ text: String) {
        if failures.count < 10 { failures.append(text) }
      }

      static func reduce(_ state: inout Senders, _ event: Event) {
        switch event {
        case .sent(let sender, let number):
          if number != state.next[sender] {
            state.fail("sender \(sender): \(number) reduced when \(state.next[sender]) was due")
          }
          state.next[sender] = number + 1
          state.reduced += 1
        case .answer(let seen):
          state.answers += 1
          for (sender, number) in seen.enumerated() where number >= state.next[sender] {
            state.fail("an answer overtook sender \(sender)'s \(number), sent before it (\(state.next[sender]) due)")
          }
        }
      }
    }

    @Test(
      "G2 G14 8 threads send to one system while its loop answers from a feedback: none lost or duplicated, each sender's order kept, and no answer overtakes an event sent before it",
      .timeLimit(.minutes(10)))
    func eightSendersAndTheLoopsAnswers() async {
      let senders = 8
      let count = Scale.pick(20_000, sanitized: 2_000)
      let answerEvery = 64
      // Each sender's last event whose send returned: an answer built from
      // it is sent after those events (the lock orders the two).
      let progress = Locked<[Int]>(Array(repeating: -1, count: senders))
      let system = System(
        initial: Senders(senders: senders),
        reduce: Senders.reduce,
        feedbacks: [
          .onEvent(strategy: .merge, name: "answer") { event, _ in
            guard case .sent(_, let number) = event, number % answerEvery == 0 else { return .none }
            // Sent from the loop: to its own queue behind what it took from
            // the inbox, or into the inbox behind what other threads queued.
            return .send(.answer(seen: progress.current))
          }
        ])
      let start = Gate()
      async let allSent: Void = onThreads(senders, startingAt: start) { sender in
        for number in 0..<count {
          system.send(.sent(sender: sender, number: number))
          progress.withLock { $0[sender] = number }
        }
      }
      start.open()
      await allSent
      // Every send returned: whoever owned the loop drained it.
      let state = system.state
      #expect(state.failures == [])
      #expect(state.reduced == senders * count)
      #expect(state.next == Array(repeating: count, count: senders))
      #expect(state.answers == senders * ((count + answerEvery - 1) / answerEvery))
      system.stop()
    }
  }
}
