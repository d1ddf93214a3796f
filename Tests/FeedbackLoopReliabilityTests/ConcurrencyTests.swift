import FeedbackLoop
import Foundation
import Testing

extension Reliability {
  /// G2 under load: many threads and tasks sending into one system at once.
  @Suite("Concurrency")
  struct ConcurrencyTests {
    /// Who answered an event from inside the loop.
    enum Answerer: Int, Sendable, CaseIterable {
      /// A feedback's synchronous effect (`.send`), for every tenth event.
      case feedbackEffect
      /// A feedback that calls `system.send` itself, for numbers ending in 3.
      case feedbackSend
      /// An observer that calls `system.send`, for numbers ending in 5.
      case observer
      /// An async effect on the global executor, for every thousandth event.
      case asyncEffect

      /// Whether `number` gets an answer from this answerer.
      func answers(_ number: Int) -> Bool {
        switch self {
        case .feedbackEffect: number % 10 == 0
        case .feedbackSend: number % 10 == 3
        case .observer: number % 10 == 5
        case .asyncEffect: number % 1_000 == 0
        }
      }

      /// How many of `count` numbers get an answer.
      func answerCount(of count: Int) -> Int { (0..<count).count(where: answers) }
    }

    enum Event: Sendable {
      case from(sender: Int, number: Int)
      case answer(Answerer, sender: Int, number: Int)
      /// Marks a point in the queue (see ``barrier(_:_:)``); the tally ignores it.
      case marker
    }

    /// Returns once everything sent before the call, and everything that
    /// sent from inside the loop in answer, has been reduced.
    ///
    /// A marker is queued behind everything sent so far; when the reducer
    /// has seen it, all of that is reduced (events are reduced in the order
    /// they were queued, G2). Answers queued while reducing those may sit
    /// behind the first marker: a second marker, sent after, waits for them.
    /// No sleep: each wait ends on a definite event.
    static func barrier(_ system: System<Tally, Event>, _ markers: Counter) async {
      for _ in 0..<2 {
        let seen = markers.value
        system.send(.marker)
        await markers.wait(untilAtLeast: seen + 1)
      }
    }

    /// What the reducer saw, per sender: the next number it expects, and
    /// every deviation.
    struct Tally: Sendable {
      var next: [Int]
      /// The last number answered, per answerer and sender.
      var lastAnswered: [[Int]]
      var asyncAnswers: Set<Int> = []
      var reduced = 0
      var answers = 0
      var failures: [String] = []
      var senderSwitches = 0
      var lastSender = -1
      var last: Event?

      init(senders: Int) {
        next = Array(repeating: 0, count: senders)
        lastAnswered = Array(repeating: Array(repeating: -1, count: senders), count: Answerer.allCases.count)
      }

      mutating func fail(_ text: String) {
        if failures.count < 10 { failures.append(text) }
      }

      static func reduce(_ tally: inout Tally, _ event: Event) {
        if case .marker = event { return }
        tally.reduced += 1
        tally.last = event
        switch event {
        case .from(let sender, let number):
          if number != tally.next[sender] { tally.fail("sender \(sender): \(number) after \(tally.next[sender] - 1)") }
          tally.next[sender] = number + 1
          if sender != tally.lastSender { tally.senderSwitches += 1 }
          tally.lastSender = sender
        case .marker:
          break
        case .answer(let answerer, let sender, let number):
          tally.answers += 1
          if number >= tally.next[sender] { tally.fail("\(answerer) answer to \(sender)/\(number) before its cause") }
          if answerer == .asyncEffect {
            // Async effects run side by side: their order is theirs, but
            // each must arrive once.
            if !tally.asyncAnswers.insert(sender * 1_000_000_000 + number).inserted {
              tally.fail("async answer to \(sender)/\(number) reduced twice")
            }
          } else {
            let expected = ((tally.lastAnswered[answerer.rawValue][sender] + 1)...).first(where: answerer.answers)!
            if number != expected { tally.fail("\(answerer) answer to \(sender)/\(number), expected \(expected)") }
            tally.lastAnswered[answerer.rawValue][sender] = number
          }
        }
      }
    }

    /// Runs 8 threads and 8 tasks, released together, each sending `count`
    /// numbered events; returns when every one has returned from its last
    /// send.
    static func sendFromThreadsAndTasks(to system: System<Tally, Event>, count: Int) async {
      let start = Gate()
      let tasks = (0..<8).map { index in
        Task.detached {
          await start.wait()
          for number in 0..<count {
            system.send(.from(sender: 8 + index, number: number))
            if number % 1_000 == 999 { await Task.yield() }
          }
        }
      }
      async let threads: Void = onThreads(8, startingAt: start) { sender in
        for number in 0..<count { system.send(.from(sender: sender, number: number)) }
      }
      start.open()
      await threads
      for task in tasks { await task.value }
    }

    @Test(
      "G2 8 threads and 8 tasks send 100,000 events each into one system: each reduced exactly once, in its sender's order",
      .timeLimit(.minutes(10)))
    func threadsAndTasksSendConcurrently() async {
      let count = Scale.eventsPerSender
      let system = System(initial: Tally(senders: 16), reduce: Tally.reduce)
      await Self.sendFromThreadsAndTasks(to: system, count: count)

      // Every sender has returned: whoever was draining drained everything.
      let tally = system.state
      #expect(tally.failures == [])
      #expect(tally.reduced == 16 * count)
      #expect(tally.next == Array(repeating: count, count: 16))
      reportFigure(
        "G2 8 threads + 8 tasks: \(16 * count) events sent, \(tally.reduced) reduced, 0 lost, 0 twice, "
          + "0 out of order (\(tally.senderSwitches) switches between senders)")
    }

    @Test(
      "G2 under load, events sent from feedbacks, observers and async effects are queued, reduced once, after their cause",
      .timeLimit(.minutes(10)))
    func reentrantSendsInterleaved() async {
      let count = Scale.eventsPerSender
      let senders = 16
      let asyncAnswers = Counter()
      let markers = Counter()
      let systemRef = Locked<System<Tally, Event>?>(nil)
      let system = System(
        initial: Tally(senders: senders),
        reduce: { tally, event in
          Tally.reduce(&tally, event)
          if case .answer(.asyncEffect, _, _) = event { asyncAnswers.add() }
          if case .marker = event { markers.add() }
        },
        feedbacks: [
          .onEvent(strategy: .merge, name: "synchronous answers") { event, _ in
            guard case .from(let sender, let number) = event, Answerer.feedbackEffect.answers(number) else {
              return .none
            }
            return .send(.answer(.feedbackEffect, sender: sender, number: number))
          },
          .onEvent(strategy: .merge, name: "asynchronous answers") { event, _ in
            guard case .from(let sender, let number) = event, Answerer.asyncEffect.answers(number) else {
              return .none
            }
            return .run { send in send(.answer(.asyncEffect, sender: sender, number: number)) }
          },
          // Sends through the system itself, as a view model's closure that
          // captured its store would.
          Feedback.predicate({ _ in true }, whenFalse: .keepRunning, strategy: .merge, name: "direct sends") { tally in
            if case .from(let sender, let number) = tally.last, Answerer.feedbackSend.answers(number) {
              systemRef.current?.send(.answer(.feedbackSend, sender: sender, number: number))
            }
            return .none
          },
        ])
      systemRef.withLock { $0 = system }
      let observation = system.observe { tally in
        if case .from(let sender, let number) = tally.last, Answerer.observer.answers(number) {
          systemRef.current?.send(.answer(.observer, sender: sender, number: number))
        }
      }

      await Self.sendFromThreadsAndTasks(to: system, count: count)
      let expectedAsync = senders * Answerer.asyncEffect.answerCount(of: count)
      // The async answers come from tasks of their own; one of them may be
      // draining the queue when the last one is reduced.
      await asyncAnswers.wait(untilAtLeast: expectedAsync)
      await Self.barrier(system, markers)

      let tally = system.state
      let expected = Dictionary(
        uniqueKeysWithValues: Answerer.allCases.map { ($0, senders * $0.answerCount(of: count)) })
      let lastNumber = { (answerer: Answerer) in (0..<count).last(where: answerer.answers)! }
      #expect(tally.failures == [])
      #expect(tally.next == Array(repeating: count, count: senders))
      for answerer in [Answerer.feedbackEffect, .feedbackSend, .observer] {
        #expect(tally.lastAnswered[answerer.rawValue] == Array(repeating: lastNumber(answerer), count: senders))
      }
      #expect(tally.asyncAnswers.count == expectedAsync)
      #expect(tally.answers == expected.values.reduce(0, +))
      #expect(tally.reduced == senders * count + expected.values.reduce(0, +))
      observation.cancel()
      system.stop()
      reportFigure(
        "G2 reentrant: \(senders * count) events sent by 8 threads + 8 tasks; answered from inside the loop by "
          + "a feedback's effect \(expected[.feedbackEffect]!), a feedback's send \(expected[.feedbackSend]!), "
          + "an observer \(expected[.observer]!), async effects \(expectedAsync); \(tally.reduced) reduced, "
          + "each once, 0 out of order")
    }

    @Test(
      "G2 G10 8 tasks send to a main-actor system from other threads: each event reduced once, in its sender's order",
      .timeLimit(.minutes(5)))
    @MainActor
    func tasksSendToMainActorSystem() async {
      let count = Scale.eventsPerSender / 10
      let system = System(initial: Tally(senders: 8), reduce: Tally.reduce, isolation: .mainActor)
      let states = system.states(buffering: .newest(1))
      let tasks = (0..<8).map { sender in
        Task.detached {
          for number in 0..<count {
            system.send(.from(sender: sender, number: number))
            if number % 100 == 99 { await Task.yield() }
          }
        }
      }
      for task in tasks { await task.value }
      // The last events may still be on their way to the main actor.
      for await tally in states where tally.reduced == 8 * count { break }
      let tally = system.state
      #expect(tally.failures == [])
      #expect(tally.next == Array(repeating: count, count: 8))
      system.stop()
      reportFigure(
        "G2 main actor: \(8 * count) events sent by 8 tasks, \(tally.reduced) reduced, 0 lost, 0 out of order")
    }
  }
}
