import FeedbackLoop
import Foundation
import Testing

extension Reliability {
  /// The core's control word and reduction guard under load (SystemCore.swift:
  /// one atomic word says which thread owns the loop; other threads read the
  /// state through an asymmetric Dekker guard that excludes the reducer only).
  ///
  /// Every test here has a deterministic outcome: threads race, but what is
  /// asserted holds for every interleaving if the core is right, and no
  /// assertion waits for time to pass. Each wait ends on a definite event
  /// (a thread returned, a count was reached).
  @Suite("Control word")
  struct ControlWordTests {
    /// A state whose `values` are all equal between two reductions: the
    /// reducer rewrites them one by one, in place, so that a reader that
    /// copied the state in the middle of a reduction sees unequal elements.
    struct Wide: Sendable {
      var values: [Int]
      var next: [Int]
      var reduced = 0
      var failures: [String] = []

      init(width: Int, senders: Int) {
        values = Array(repeating: 0, count: width)
        next = Array(repeating: 0, count: senders)
      }

      /// Whether this copy is one a reduction left: every element equal to
      /// the number of events reduced.
      var isWhole: Bool {
        values.allSatisfy { $0 == reduced }
      }

      mutating func fail(_ text: String) {
        if failures.count < 10 { failures.append(text) }
      }

      struct Event: Sendable {
        var sender: Int
        var number: Int
      }

      static func reduce(_ state: inout Wide, _ event: Event) {
        if event.number != state.next[event.sender] {
          state.fail("sender \(event.sender): \(event.number) after \(state.next[event.sender] - 1)")
        }
        state.next[event.sender] = event.number + 1
        state.reduced += 1
        for index in state.values.indices { state.values[index] = state.reduced }
      }
    }

    /// What readers of `system.state` saw.
    struct Reads: Sendable {
      var total = 0
      var torn = 0
      /// Reads that saw a state strictly between the first and the last.
      var midway = 0
    }

    @Test(
      "G2 G10 4 threads read system.state while 8 threads send and the reducer rewrites 10,000 Ints in place: no torn read",
      .timeLimit(.minutes(10)))
    func readersNeverSeeATornState() async {
      let count = Scale.pick(2_500, sanitized: 500)
      let readsPerReader = Scale.pick(2_000, sanitized: 500)
      let system = System(initial: Wide(width: 10_000, senders: 8), reduce: Wide.reduce)
      let reads = Locked(Reads())
      let start = Gate()
      let started = ContinuousClock.now
      async let senders: Void = onThreads(8, startingAt: start) { sender in
        for number in 0..<count { system.send(Wide.Event(sender: sender, number: number)) }
      }
      async let readers: Void = onThreads(4, startingAt: start) { _ in
        var mine = Reads()
        for _ in 0..<readsPerReader {
          let state = system.state
          mine.total += 1
          if !state.isWhole { mine.torn += 1 }
          if state.reduced > 0, state.reduced < 8 * count { mine.midway += 1 }
        }
        reads.withLock {
          $0.total += mine.total
          $0.torn += mine.torn
          $0.midway += mine.midway
        }
      }
      start.open()
      await senders
      await readers
      let elapsed = ContinuousClock.now - started

      // Every sender has returned: whoever owned the loop drained it.
      let state = system.state
      let seen = reads.current
      #expect(seen.torn == 0, "\(seen.torn) of \(seen.total) reads saw a state in the middle of a reduction")
      #expect(state.isWhole)
      #expect(state.failures == [])
      #expect(state.reduced == 8 * count)
      #expect(state.next == Array(repeating: count, count: 8))
      system.stop()
      reportFigure(
        "G10 reads: 4 threads read the state \(seen.total) times (\(seen.midway) while events were still "
          + "being reduced) while 8 threads sent \(8 * count) events, each rewriting 10,000 Ints; \(seen.torn) torn; "
          + "\(elapsed)")
    }

    /// A state stored inline, with no reference to retain: a copy is a
    /// plain copy of its 64 words, so a reader that copies it while the
    /// reducer writes them sees unequal words (an array's copy-on-write
    /// would hide part of that race behind a retain).
    struct InlineWords: Sendable {
      var words = SIMD64<Int>(repeating: 0)
      var isWhole: Bool { words == SIMD64(repeating: words[0]) }
    }

    @Test(
      "G10 one thread reads while another sends, on an inline 64-word state: no torn copy (the guard's store-load barrier)",
      .timeLimit(.minutes(10)))
    func readerAndOwnerOnTwoCores() async {
      // Two threads for two cores: the owner enters the guard for every
      // event while the reader copies the state in a loop. Without the
      // membarrier on the reader's side (the owner's being a compiler
      // barrier), this found 0 to 2 torn copies per 2,000,000 events: it
      // catches a broken barrier now and then, a missing guard always.
      let count = Scale.pick(500_000, sanitized: 50_000)
      let system = System(
        initial: InlineWords(),
        reduce: { (state: inout InlineWords, number: Int) in
          for index in 0..<64 { state.words[index] = number }
        })
      let torn = Locked(0)
      let reads = Locked(0)
      let done = Locked(false)
      let start = Gate()
      let started = ContinuousClock.now
      async let sender: Void = onThreads(1, startingAt: start) { _ in
        for number in 1...count { system.send(number) }
        done.withLock { $0 = true }
      }
      async let reader: Void = onThreads(1, startingAt: start) { _ in
        var mine = 0
        var total = 0
        while !done.current {
          for _ in 0..<1_000 where !system.state.isWhole { mine += 1 }
          total += 1_000
        }
        torn.withLock { $0 += mine }
        reads.withLock { $0 += total }
      }
      start.open()
      await sender
      await reader
      let elapsed = ContinuousClock.now - started
      #expect(torn.current == 0, "\(torn.current) of \(reads.current) reads copied a state being reduced")
      #expect(system.state.words == SIMD64(repeating: count))
      system.stop()
      reportFigure(
        "G10 reader and owner on two cores: \(count) events, \(reads.current) reads, \(torn.current) torn; \(elapsed)")
    }

    @Test(
      "G9 stop() races with 8 sending threads: no reducer runs after stop returns; each event reduced or reported discarded",
      .timeLimit(.minutes(10)), arguments: [true, false])
    func stopRacesWithSenders(monitored: Bool) async {
      let rounds = Scale.pick(40, sanitized: 10)
      let count = Scale.pick(2_000, sanitized: 500)
      var reducedInAll = 0
      var discardedInAll = 0
      var lateInAll = 0
      var startedLateInAll = 0
      var lostInAll = 0
      let started = ContinuousClock.now
      for _ in 0..<rounds {
        let activity = ActivityCounts<Wide, Wide.Event>()
        let reduced = Locked(0)
        let stopReturned = Locked(false)
        let late = Locked(0)
        let startedLate = Locked(0)
        let system = System(
          initial: Wide(width: 1_000, senders: 8),
          reduce: { state, event in
            // A reduction that starts after stop() returned...
            if stopReturned.current { startedLate.withLock { $0 += 1 } }
            Wide.reduce(&state, event)
            reduced.withLock { $0 += 1 }
            // ...or that was still running when it returned (the old core
            // reduced under the lock that stop() took: it waited).
            if stopReturned.current { late.withLock { $0 += 1 } }
          },
          // Without a monitor the core takes its other path to the reducer.
          monitor: monitored ? activity.monitor : nil)
        let start = Gate()
        async let senders: Void = onThreads(8, startingAt: start) { sender in
          for number in 0..<count { system.send(Wide.Event(sender: sender, number: number)) }
        }
        async let stopper: Void = onThreads(1, startingAt: start) { _ in
          // Stop somewhere in the middle of the sends: once a quarter of
          // them are reduced (they all are, eventually, if nobody stops).
          while reduced.current < 2 * count { sched_yield() }
          system.stop()
          stopReturned.withLock { $0 = true }
        }
        start.open()
        await senders
        await stopper

        let counts = activity.current
        #expect(system.isStopped)
        #expect(startedLate.current == 0, "\(startedLate.current) reductions started after stop() returned")
        #expect(late.current == 0, "\(late.current) reductions ran after stop() returned")
        if monitored {
          let discarded = activity.discarded(.systemStopped)
          #expect(counts.stopped == 1, "the system was torn down \(counts.stopped) times")
          #expect(counts.reduced == reduced.current)
          #expect(
            counts.reduced + discarded == 8 * count,
            "\(8 * count) sent, \(counts.reduced) reduced, \(discarded) discarded")
          #expect(activity.discardedTotal == discarded)
          discardedInAll += discarded
          lostInAll += 8 * count - counts.reduced - discarded
        }
        reducedInAll += reduced.current
        lateInAll += late.current
        startedLateInAll += startedLate.current
      }
      let elapsed = ContinuousClock.now - started
      reportFigure(
        "G9 stop races\(monitored ? "" : " (no monitor)"): \(rounds) rounds of 8 threads sending \(count) events "
          + "each while a 9th stops the system; \(reducedInAll) reduced"
          + (monitored ? ", \(discardedInAll) reported discarded, \(lostInAll) lost" : "")
          + "; \(lateInAll) reductions still running when stop() returned, \(startedLateInAll) started after it; "
          + "\(elapsed)")
    }

    @Test(
      "G9 observe() races with stop(): every observation's onStop is called, once",
      .timeLimit(.minutes(10)))
    func observeRacesWithStop() async {
      let rounds = Scale.pick(100, sanitized: 25)
      let perThread = 200
      var lostInAll = 0
      let started = ContinuousClock.now
      for _ in 0..<rounds {
        let system = System(initial: 0, reduceReturning: { (state: Int, event: Int) in state + event })
        let added = Locked(0)
        let stops = Locked(0)
        let observations = Locked<[StateObservation]>([])
        let start = Gate()
        async let observers: Void = onThreads(4, startingAt: start) { _ in
          var mine: [StateObservation] = []
          for _ in 0..<perThread {
            mine.append(system.observe({ _ in }, onStop: { stops.withLock { $0 += 1 } }))
            added.withLock { $0 += 1 }
          }
          observations.withLock { $0 += mine }
        }
        async let stopper: Void = onThreads(1, startingAt: start) { _ in
          while added.current < perThread { sched_yield() }
          system.stop()
        }
        start.open()
        await observers
        await stopper
        // Both returned: an observation made before the stop was stopped by
        // the teardown; one made after was refused and told at once.
        let lost = 4 * perThread - stops.current
        #expect(lost == 0, "\(lost) of \(4 * perThread) observations never had their onStop called")
        #expect(observations.current.count == 4 * perThread)
        lostInAll += lost
      }
      let elapsed = ContinuousClock.now - started
      reportFigure(
        "G9 observe vs stop: \(rounds) rounds of 4 threads observing \(perThread) times each while a 5th stops; "
          + "\(lostInAll) onStop calls missing; \(elapsed)")
    }

    @Test(
      "G2 G10 a main-actor system fed by 8 threads while the main actor sends and reads: none lost, each sender's order kept",
      .timeLimit(.minutes(10)))
    @MainActor
    func mainActorSystemFedFromThreads() async {
      let count = Scale.pick(5_000, sanitized: 1_000)
      let system = System(initial: Wide(width: 100, senders: 9), reduce: Wide.reduce, isolation: .mainActor)
      let start = Gate()
      let started = ContinuousClock.now
      async let threads: Void = onThreads(8, startingAt: start) { sender in
        for number in 0..<count { system.send(Wide.Event(sender: sender, number: number)) }
      }
      start.open()
      var notReducedOnReturn = 0
      var torn = 0
      for number in 0..<count {
        system.send(Wide.Event(sender: 8, number: number))
        // On the main actor, a send to a main-actor system has reduced, with
        // everything queued before it, by the time it returns.
        let state = system.state
        if state.next[8] != number + 1 { notReducedOnReturn += 1 }
        if !state.isWhole { torn += 1 }
        // Let the hops scheduled by the other threads run now and then.
        if number % 50 == 49 { await Task.yield() }
      }
      await threads
      // Nothing owns the loop now; whatever the threads queued is reduced here.
      system.processQueuedEvents()
      let elapsed = ContinuousClock.now - started

      let state = system.state
      #expect(notReducedOnReturn == 0)
      #expect(torn == 0)
      #expect(state.failures == [])
      #expect(state.reduced == 9 * count)
      #expect(state.next == Array(repeating: count, count: 9))
      system.stop()
      reportFigure(
        "G2 main actor: 8 threads sent \(8 * count) events and the main actor \(count), reading the state after "
          + "each; \(state.reduced) reduced, 0 lost, 0 out of order; \(elapsed)")
    }

    /// An event that travels round a ring of systems.
    struct Ping: Sendable {
      var origin: Int
      var number: Int
      var hops: Int
    }

    /// What one system of the ring saw: per origin and hop count, the next
    /// number expected (each system forwards in its reduction order, so a
    /// path's order is kept at every stop).
    struct RingStop: Sendable {
      var next: [[Int]]
      var reduced = 0
      var failures: [String] = []

      init(origins: Int, hops: Int) {
        next = Array(repeating: Array(repeating: 0, count: hops + 1), count: origins)
      }

      static func reduce(_ state: inout RingStop, _ ping: Ping) {
        state.reduced += 1
        let expected = state.next[ping.origin][ping.hops]
        if ping.number < expected, state.failures.count < 10 {
          state.failures.append("origin \(ping.origin) hop \(ping.hops): \(ping.number) after \(expected - 1)")
        }
        state.next[ping.origin][ping.hops] = ping.number + 1
      }
    }

    @Test(
      "G2 4 systems forward each event to the next from their feedbacks, fed by 8 threads: no deadlock, none lost, order kept",
      .timeLimit(.minutes(10)))
    func systemsSendToEachOther() async {
      let count = Scale.pick(5_000, sanitized: 1_000)
      let ringSize = 4
      let hops = 3
      let ring = Locked<[System<RingStop, Ping>]>([])
      let systems = (0..<ringSize).map { index in
        System(
          initial: RingStop(origins: 8, hops: hops),
          reduce: RingStop.reduce,
          feedbacks: [
            .onEvent(strategy: .merge, name: "forward") { ping, _ in
              if ping.hops < hops {
                let next = ring.current[(index + 1) % ringSize]
                next.send(Ping(origin: ping.origin, number: ping.number, hops: ping.hops + 1))
              }
              return .none
            }
          ])
      }
      ring.withLock { $0 = systems }
      let start = Gate()
      let started = ContinuousClock.now
      async let senders: Void = onThreads(8, startingAt: start) { origin in
        let first = systems[origin % ringSize]
        for number in 0..<count { first.send(Ping(origin: origin, number: number, hops: 0)) }
      }
      start.open()
      await senders
      let elapsed = ContinuousClock.now - started

      // Every send, nested ones included, returned inside a thread's
      // top-level send: all of it is reduced.
      let states = systems.map(\.state)
      #expect(states.flatMap(\.failures) == [])
      #expect(states.map(\.reduced).reduce(0, +) == 8 * count * (hops + 1))
      for system in systems { system.stop() }
      reportFigure(
        "G2 ring: 4 systems forwarding from their feedbacks, 8 threads sending \(count) events each; "
          + "\(states.map(\.reduced).reduce(0, +)) reductions, 0 lost, 0 out of order, no deadlock; \(elapsed)")
    }

    @Test(
      "G10 G14 readers on 4 threads are not held by a feedback that blocks, only by the reducer",
      .timeLimit(.minutes(5)))
    func readersDoNotWaitForABlockedFeedback() async {
      let entered = Gate()
      let release = Gate()
      let system = System(
        initial: Wide(width: 1_000, senders: 1),
        reduce: Wide.reduce,
        feedbacks: [
          .onEvent(strategy: .merge, name: "blocks at the first event") { event, _ in
            if event.number == 0 {
              entered.open()
              release.waitBlocking()
            }
            return .none
          }
        ])
      let owner = Task.detached { await onThreads(1) { _ in system.send(Wide.Event(sender: 0, number: 0)) } }
      await entered.wait()
      let reads = Locked(Reads())
      await onThreads(4) { _ in
        for _ in 0..<1_000 {
          let state = system.state
          reads.withLock {
            $0.total += 1
            if !state.isWhole || state.reduced != 1 { $0.torn += 1 }
          }
        }
      }
      // 4,000 reads returned while the owner was still inside the feedback.
      #expect(!release.isOpen)
      #expect(reads.current.total == 4_000)
      #expect(reads.current.torn == 0)
      release.open()
      await owner.value
      system.send(Wide.Event(sender: 0, number: 1))
      #expect(system.state.reduced == 2)
      system.stop()
    }

    enum Burst: Sendable {
      case external(Int)
      case answer(Int)
    }

    /// What a bounded system reduced and what its monitor said it dropped.
    struct BurstCounts: Sendable {
      var reducedExternal = 0
      var reducedAnswers = 0
      var droppedExternal = 0
      var droppedAnswers = 0
      var otherReasons = 0
    }

    @Test(
      "G14 a bounded event buffer under 8 senders: every event, feedbacks' answers included, is reduced or reported dropped",
      .timeLimit(.minutes(5)), arguments: [EventBufferPolicy.dropNewest(limit: 8), .dropOldest(limit: 8)])
    func boundedBufferAccountsForEveryEvent(policy: EventBufferPolicy) async {
      let count = Scale.pick(5_000, sanitized: 1_000)
      let counts = Locked(BurstCounts())
      let answersSent = Locked(0)
      let monitor = SystemMonitor<Int, Burst> { activity in
        guard case .eventDiscarded(let event, let reason) = activity else { return }
        counts.withLock {
          guard case .bufferFull = reason else { return $0.otherReasons += 1 }
          switch event {
          case .external: $0.droppedExternal += 1
          case .answer: $0.droppedAnswers += 1
          }
        }
      }
      let system = System(
        initial: 0,
        reduceReturning: { (state: Int, event: Burst) in
          counts.withLock {
            switch event {
            case .external: $0.reducedExternal += 1
            case .answer: $0.reducedAnswers += 1
            }
          }
          return state + 1
        },
        feedbacks: [
          // Answers every even event at once: the answer waits in the
          // owner's own queue, and joins the shared one, under the bound,
          // when other threads' events are waiting.
          .onEvent(strategy: .merge, name: "answers") { event, _ in
            guard case .external(let number) = event, number % 2 == 0 else { return .none }
            answersSent.withLock { $0 += 1 }
            return .send(.answer(number))
          }
        ],
        environment: SystemEnvironment(eventBuffer: policy),
        monitor: monitor)
      let start = Gate()
      async let senders: Void = onThreads(8, startingAt: start) { _ in
        for number in 0..<count { system.send(.external(number)) }
      }
      start.open()
      await senders

      // Every sender returned: what was not dropped is reduced.
      let seen = counts.current
      let answers = answersSent.current
      #expect(seen.otherReasons == 0)
      #expect(
        seen.reducedExternal + seen.droppedExternal == 8 * count,
        "\(8 * count) sent, \(seen.reducedExternal) reduced, \(seen.droppedExternal) reported dropped")
      #expect(
        seen.reducedAnswers + seen.droppedAnswers == answers,
        "\(answers) answers sent, \(seen.reducedAnswers) reduced, \(seen.droppedAnswers) reported dropped")
      system.stop()
      reportFigure(
        "G14 \(policy): 8 threads sent \(8 * count) events, \(seen.reducedExternal) reduced, "
          + "\(seen.droppedExternal) reported dropped; feedbacks answered \(answers), \(seen.reducedAnswers) reduced, "
          + "\(seen.droppedAnswers) reported dropped; "
          + "\(8 * count + answers - seen.reducedExternal - seen.droppedExternal - seen.reducedAnswers - seen.droppedAnswers) "
          + "unaccounted for")
    }

    @Test(
      "G2 G8 a thread sends through an Input while the system binding it starts: its events are reduced in its order",
      .timeLimit(.minutes(5)))
    func inputKeepsOrderAcrossBinding() async {
      let rounds = Scale.pick(200, sanitized: 50)
      let count = 2_000
      var outOfOrderRounds = 0
      for _ in 0..<rounds {
        let input = Input<Wide.Event>()
        let sent = Locked(0)
        let start = Gate()
        async let sender: Void = onThreads(1, startingAt: start) { _ in
          for number in 0..<count {
            input.send(Wide.Event(sender: 0, number: number))
            sent.withLock { $0 += 1 }
          }
        }
        start.open()
        // Bind while the thread sends: some of its events are kept by the
        // input until then, the rest go straight to the system.
        while sent.current < count / 10 { sched_yield() }
        let system = System(
          initial: Wide(width: 1, senders: 1), reduce: Wide.reduce, feedbacks: [.input(input)])
        await sender
        let state = system.state
        #expect(state.failures == [])
        #expect(state.reduced == count)
        if !state.failures.isEmpty { outOfOrderRounds += 1 }
        system.stop()
      }
      reportFigure(
        "G8 input binding: \(rounds) rounds of a thread sending \(count) events through an Input while the system "
          + "binding it started; \(outOfOrderRounds) rounds out of order")
    }
  }
}
