import FeedbackLoop
import FeedbackLoopTesting
import Foundation
import PropertyBased
import Testing

extension Reliability {
  /// Faults injected into effects, feedbacks and observers: the loop keeps
  /// working, reports what happened, and loses no event it accepted.
  @Suite("Faults")
  struct FaultTests {
    enum Event: Sendable, Equatable {
      case fire(Int)
      case failed(Int)
      case set(Int?)
      case value(Int)
      case late(effect: Int, index: Int)
      case burst(Int)
      case raw(String)
      case marker
    }

    struct Boom: Error, CustomStringConvertible {
      let id: Int
      var description: String { "boom \(id)" }
    }

    struct State: Sendable, Equatable {
      var query: Int?
      var raw = ""
      var fired = 0
      var failed: [Int] = []
      var values: [Int] = []
      var late = 0
      var nextBurst = 0
      var burstGaps = 0
    }

    static func reduce(_ state: inout State, _ event: Event) {
      switch event {
      case .fire: state.fired += 1
      case .failed(let id): state.failed.append(id)
      case .set(let query): state.query = query
      case .value(let value): state.values.append(value)
      case .late: state.late += 1
      case .burst(let index):
        if index != state.nextBurst { state.burstGaps += 1 }
        state.nextBurst = index + 1
      case .raw(let text): state.raw = text
      case .marker: break
      }
    }

    @Test(
      "G12 1,000 effects that throw: mapped errors become events, unmapped ones are logged and reported, the loop goes on"
    )
    func throwingEffects() {
      let count = 1_000
      let harness = Harness()
      let activity = ActivityCounts<State, Event>()
      let system = System(
        initial: State(), reduce: Self.reduce,
        feedbacks: [
          .onEvent(strategy: .merge) { event, _ in
            guard case .fire(let id) = event else { return .none }
            switch id % 3 {
            case 0:
              return .task {
                throw Boom(id: id)
              } catch: { _ in
                .failed(id)
              }
            case 1: return .run { _ in throw Boom(id: id) }
            default:
              let (failing, continuation) = AsyncThrowingStream<Event, any Error>.makeStream()
              continuation.yield(.value(id))
              continuation.finish(throwing: Boom(id: id))
              return .sequence(failing)
            }
          }
        ],
        environment: harness.environment, monitor: activity.monitor)
      for id in 0..<count { system.send(.fire(id)) }
      harness.settle()
      let mapped = (0..<count).filter { $0 % 3 == 0 }
      let unmapped = count - mapped.count
      #expect(system.state.failed.sorted() == mapped)
      #expect(system.state.values.sorted() == (0..<count).filter { $0 % 3 == 2 })
      #expect(activity.current.failed == unmapped)
      let logged = harness.logged.current.filter { $0.contains("not mapped") && $0.contains("boom") }
      #expect(logged.count == unmapped)
      #expect(system.runningTaskCount == 0)
      system.send(.value(-1))  // the loop still works
      #expect(system.state.values.last == -1)
      reportFigure(
        "G12 faults: \(count) throwing effects, \(mapped.count) errors mapped to events, \(unmapped) logged and "
          + "reported, loop still reducing")
    }

    @Test("G4 G9 effects that never finish are cancelled when their query changes and when the system stops")
    func effectsThatNeverFinish() {
      let count = 1_000
      let harness = Harness()
      let activity = ActivityCounts<State, Event>()
      let ended = Counter()
      let system = System(
        initial: State(), reduce: Self.reduce,
        feedbacks: [
          Feedback.query(\.query) { _ in
            .run { _ in
              let (never, keep) = AsyncStream<Int>.makeStream()
              for await _ in never {}  // until cancelled
              withExtendedLifetime(keep) {}
              ended.add()
            }
          }
        ],
        environment: harness.environment, monitor: activity.monitor)
      for query in 0..<count {
        system.send(.set(query))
        if query % 100 == 0 { harness.settle() }
      }
      harness.settle()
      #expect(system.runningTaskCount == 1)
      #expect(ended.value == count - 1)
      system.stop()
      harness.settle()
      #expect(system.runningTaskCount == 0)
      #expect(ended.value == count)
      #expect(activity.current.cancelled == count)
      reportFigure(
        "G4 never-ending effects: \(count) started, \(count) cancelled (\(count - 1) replaced, 1 by stop), 0 left running"
      )
    }

    @Test(
      "G4 effects that emit after their cancellation: every late event is dropped and reported, the live one delivers all"
    )
    func effectsThatEmitAfterCancellation() {
      let effects = 100
      let perEffect = 100
      let harness = Harness()
      let activity = ActivityCounts<State, Event>()
      let gate = Gate()
      let instance = Counter()
      let system = System(
        initial: State(), reduce: Self.reduce,
        feedbacks: [
          Feedback.query(\.query) { _ in
            instance.add()
            let number = instance.value
            return .run { send in
              await gate.wait()  // ignores cancellation
              for index in 0..<perEffect { send(.late(effect: number, index: index)) }
            }
          }
        ],
        environment: harness.environment, monitor: activity.monitor)
      for query in 0..<effects { system.send(.set(query)) }
      harness.settle()  // all wait on the gate; all but the last are cancelled
      gate.open()
      harness.settle()
      #expect(system.state.late == perEffect)
      #expect(activity.discarded(.effectCancelled) == (effects - 1) * perEffect)
      #expect(system.runningTaskCount == 0)
      reportFigure(
        "G4 late emitters: \(effects * perEffect) events emitted, \((effects - 1) * perEffect) by cancelled effects "
          + "dropped and reported, \(perEffect) by the live one reduced")
    }

    @Test(
      "G2 an effect that emits 10,000 events at once while 4 threads send: all reduced, each source in its order",
      .timeLimit(.minutes(5)))
    func effectsThatEmitThousandsAtOnce() async {
      let burst = Scale.burst
      let perThread = Scale.eventsPerSender / 10
      let reducedBursts = Counter()
      let markers = Counter()
      let system = System(
        initial: State(),
        reduce: { state, event in
          Self.reduce(&state, event)
          if case .burst = event { reducedBursts.add() }
          if case .marker = event { markers.add() }
        },
        feedbacks: [
          // An async burst from the global executor, racing the threads.
          Feedback.onBecomingTrue({ $0.fired > 0 }) { _ in
            .run { send in for index in 0..<burst { send(.burst(index)) } }
          },
          // A synchronous burst: thousands of events queued at once.
          .onEvent(strategy: .merge) { event, _ in
            guard case .fire(-1) = event else { return .none }
            return .send(contentsOf: (0..<burst).map(Event.value))
          },
        ])
      system.send(.fire(-1))
      async let threads: Void = onThreads(4) { sender in
        for number in 0..<perThread { system.send(.fire(sender * perThread + number)) }
      }
      await threads
      await reducedBursts.wait(untilAtLeast: burst)
      // The effect's task may be draining what the threads sent: a marker
      // queued behind it all is reduced last (G2).
      system.send(.marker)
      await markers.wait(untilAtLeast: 1)
      let state = system.state
      #expect(state.nextBurst == burst)
      #expect(state.burstGaps == 0)
      #expect(state.values == Array(0..<burst))
      #expect(state.fired == 1 + 4 * perThread)
      system.stop()
      reportFigure(
        "G2 bursts: \(burst) events from one async effect and \(burst) from one synchronous effect, while 4 threads "
          + "sent \(4 * perThread); all \(2 * burst + 4 * perThread + 1) reduced, in order")
    }

    @Test("G4 a query computed from bad input (garbage, overflow, huge text) yields nil and cancels; the loop goes on")
    func queryFromBadInput() {
      let harness = Harness()
      let activity = ActivityCounts<State, Event>()
      let started = Locked<[Int]>([])
      let system = System(
        initial: State(), reduce: Self.reduce,
        feedbacks: [
          Feedback.query({ Int($0.raw) }) { parsed in
            started.withLock { $0.append(parsed) }
            return .run { _ in
              let (never, keep) = AsyncStream<Int>.makeStream()
              for await _ in never {}
              withExtendedLifetime(keep) {}
            }
          }
        ],
        environment: harness.environment, monitor: activity.monitor)
      var rng = Xoshiro(seed: (0xBAD_1A9B, 0x5EED_0001, 0xFEED_BAC4, 0xC0FF_EE00))
      var inputs = [
        "", "-", "+", "0x10", "1e3", " 12", "12 ", "99999999999999999999999", "-9223372036854775809",
        String(repeating: "9", count: 100_000), "\u{0}", "٣", "12\u{301}", "NaN", "42", "42", "-0", "0",
      ]
      for _ in 0..<1_000 {
        let length = rng.int(in: 0...12)
        var text = ""
        for _ in 0..<length {
          let scalar: Unicode.Scalar =
            rng.chance(50)
            ? Unicode.Scalar(UInt8(rng.int(in: 0x30...0x39)))
            : (Unicode.Scalar(UInt32(rng.int(in: 0x20...0x2FFF))) ?? "?")
          text.unicodeScalars.append(scalar)
        }
        inputs.append(text)
      }
      var expected: [Int] = []
      var last: Int?
      for text in inputs {
        system.send(.raw(text))
        let parsed = Int(text)
        if parsed != last, let parsed { expected.append(parsed) }
        last = parsed
        if rng.chance(20) { harness.settle() }
      }
      harness.settle()
      #expect(started.current == expected)
      #expect(system.runningTaskCount == (last == nil ? 0 : 1))
      #expect(activity.current.reduced == inputs.count)
      system.stop()
      harness.settle()
      #expect(system.runningTaskCount == 0)
      reportFigure(
        "G4 bad input: \(inputs.count) raw inputs (garbage, overflow, 100,000 digits), \(expected.count) "
          + "effects started exactly when the parsed query changed, the loop never stalled")
    }

    @Test("G4 a NaN query is never equal to itself: each state restarts its effect, and no effect piles up")
    func nanQueryRestartsEachTime() {
      let harness = Harness()
      let activity = ActivityCounts<State, Event>()
      let system = System(
        initial: State(), reduce: Self.reduce,
        feedbacks: [
          Feedback.query({ _ in Double.nan }) { _ in
            .run { send in try await send.clock.sleep(for: .seconds(1)) }
          }
        ],
        environment: harness.environment, monitor: activity.monitor)
      for id in 0..<100 { system.send(.fire(id)) }
      harness.settle()
      #expect(activity.current.started == 101)
      #expect(activity.current.cancelled == 100)
      #expect(system.runningTaskCount == 1)
      #expect(harness.clock.sleeperCount == 1)
      system.stop()
      harness.settle()
      #expect(system.runningTaskCount == 0)
    }

    @Test("G12 an events feedback whose sequence throws is reported; its earlier events are reduced; the loop goes on")
    func eventsFeedbackThatThrows() {
      let harness = Harness()
      let activity = ActivityRecorder<State, Event>()
      let system = System(
        initial: State(), reduce: Self.reduce,
        feedbacks: [
          Feedback.events(name: "throws at 3") { states in
            // Answers each state it has not answered yet, until the third fire.
            states.compactMap { state -> Event? in
              if state.fired == 3 { throw Boom(id: 3) }
              return state.failed.count <= state.fired ? .failed(state.fired) : nil
            }
          },
          .input(
            AsyncThrowingStream<Event, any Error> { continuation in
              continuation.yield(.value(100))
              continuation.finish(throwing: Boom(id: 100))
            }, name: "failing input"),
        ],
        environment: harness.environment, monitor: activity.monitor)
      harness.settle()
      for id in 0..<5 {
        system.send(.fire(id))
        harness.settle()
      }
      // The stream answered 0, 1 and 2 fires, then threw at the third.
      #expect(system.state.failed == [0, 1, 2])
      #expect(system.state.values == [100])
      #expect(system.state.fired == 5)
      let failed = activity.failures.map(\.effect.feedback.name).sorted()
      #expect(failed == ["failing input", "throws at 3"])
      #expect(harness.logged.current.filter { $0.contains("boom") }.count == 2)
      #expect(system.runningTaskCount == 0)
      system.send(.value(-1))
      #expect(system.state.values.last == -1)
    }

    @Test(
      "G14 an observer that blocks: the loop waits; other threads' sends are queued, none lost", .timeLimit(.minutes(5))
    )
    func blockingObserver() async {
      let perThread = Scale.eventsPerSender / 10
      let system = System(initial: State(), reduce: Self.reduce)
      let entered = Gate()
      let release = Gate()
      let observation = system.observe { state in
        if state.fired == 1 {
          entered.open()
          release.waitBlocking()
        }
      }
      let drainer = Task.detached { await onThreads(1) { _ in system.send(.fire(0)) } }
      await entered.wait()
      await onThreads(8) { sender in
        for number in 0..<perThread { system.send(.fire(1 + sender * perThread + number)) }
      }
      #expect(system.state.fired == 1)  // the loop waited for the observer
      release.open()
      await drainer.value
      #expect(system.state.fired == 1 + 8 * perThread)
      observation.cancel()
      reportFigure(
        "G14 blocking observer: the loop waited while 8 threads sent \(8 * perThread) events; all queued, "
          + "all reduced after it returned")
    }

    @Test(
      "G3 G14 a slow AsyncSequence reader of every state (.all) gets them all, in order; one that throws is dropped")
    func slowAndThrowingReaders() async {
      let system = System(initial: State(), reduce: Self.reduce)
      let batches = 50
      let batch = 200
      let all = system.states(buffering: .all)
      // A reader that throws at the fifth state: its task ends with the
      // error. It subscribes here, before any event, so it sees every state.
      let failingStates = system.states.map { state -> Int in
        if state.fired >= 5 { throw Boom(id: 5) }
        return state.fired
      }
      let failing = Task {
        for try await _ in failingStates {}
      }
      var reader = all.makeAsyncIterator()
      var seen: [Int] = []
      for round in 0..<batches {
        for id in 0..<batch { system.send(.fire(round * batch + id)) }
        for _ in 0..<batch { seen.append(await reader.next()!.fired) }
      }
      let result = await failing.result
      #expect(throws: Boom.self) { try result.get() }
      system.send(.fire(-1))  // the loop goes on after a reader failed
      system.stop()
      while let state = await reader.next() { seen.append(state.fired) }
      // The initial state, every state of the batches, and the one after.
      #expect(seen == Array(0...(batches * batch + 1)))
    }
  }
}
