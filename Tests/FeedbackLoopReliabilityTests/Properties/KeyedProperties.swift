import FeedbackLoop
import FeedbackLoopTesting
import PropertyBased
import Testing

extension Reliability {
  /// G6 on random schedules: for every state, the keyed feedback starts the
  /// requests the state added and cancels the running ones it removed, and
  /// nothing else; the events of a removed request never reach the reducer.
  @Suite("Properties: keyed requests")
  struct KeyedProperties {
    static let keys = 0...4

    struct State: Sendable, Equatable {
      var requests: Set<Int> = []
    }

    enum Event: Sendable, Equatable, CustomStringConvertible {
      case insert(Int)
      case remove(Int)
      case replace(Set<Int>)
      case noop
      case progress(key: Int, generation: Int, index: Int)

      var description: String {
        switch self {
        case .insert(let key): "insert(\(key))"
        case .remove(let key): "remove(\(key))"
        case .replace(let keys): "replace(\(keys.sorted()))"
        case .noop: "noop"
        case .progress(let key, let generation, let index): "progress(key \(key), generation \(generation), #\(index))"
        }
      }
    }

    static func reduce(_ state: inout State, _ event: Event) {
      switch event {
      case .insert(let key): state.requests.insert(key)
      case .remove(let key): state.requests.remove(key)
      case .replace(let keys): state.requests = keys
      case .noop, .progress: break
      }
    }

    /// What the effect of one key does.
    enum Behaviour: Sendable, CustomStringConvertible {
      case obeys(count: Int, every: Int)
      case ignoresCancellation(count: Int, every: Int)
      case finalEvent(after: Int)
      case immediate(count: Int)
      case nothing

      var eventCount: Int {
        switch self {
        case .obeys(let count, _), .ignoresCancellation(let count, _), .immediate(let count): count
        case .finalEvent: 1
        case .nothing: 0
        }
      }

      var description: String {
        switch self {
        case .obeys(let count, let every): "obeys(\(count) events every \(every) ms)"
        case .ignoresCancellation(let count, let every): "ignoresCancellation(\(count) events every \(every) ms)"
        case .finalEvent(let after): "finalEvent(after \(after) ms)"
        case .immediate(let count): "immediate(\(count) events)"
        case .nothing: "nothing (.none)"
        }
      }

      static var generator: Generator<Behaviour, Shrink.None<Behaviour>> {
        unshrunk { rng in
          let count = rng.int(in: 1...3)
          let every = rng.int(in: 1...300)
          switch rng.int(in: 0...6) {
          case 0, 1: return .obeys(count: count, every: every)
          case 2: return .ignoresCancellation(count: count, every: every)
          case 3, 4: return .finalEvent(after: every)
          case 5: return .immediate(count: count)
          default: return .nothing
          }
        }
      }
    }

    struct Case: CustomStringConvertible {
      var behaviours: [Behaviour]
      var initial: Set<Int>
      var script: Script<Event>

      var description: String {
        let plan = behaviours.enumerated().map { "    key \($0.offset): \($0.element)" }.joined(separator: "\n")
        return plan + "\n    initial requests: \(initial.sorted())\n" + script.description
      }
    }

    static var subset: Generator<Set<Int>, Shrink.None<Set<Int>>> {
      unshrunk { rng in Set(keys.filter { _ in rng.chance(40) }) }
    }

    static var generator: Generator<Case, some SendableSequenceType> {
      let events = Gen<Event>.frequency(
        (weight: 3, gen: Gen.int(in: keys).map { .insert($0) }),
        (weight: 3, gen: Gen.int(in: keys).map { .remove($0) }),
        (weight: 1, gen: subset.map { .replace($0) }),
        (weight: 1, gen: Gen.always(.noop))
      )
      return zip(Behaviour.generator.array(of: keys.count), subset, Script.generator(events: events))
        .map { Case(behaviours: $0, initial: $1, script: $2) }
    }

    static func effect(
      _ behaviour: Behaviour, key: Int, generation: Int, emitted: Counter, clock: TestClock
    ) -> Effect<Event> {
      @Sendable func event(_ index: Int) -> Event { .progress(key: key, generation: generation, index: index) }
      switch behaviour {
      case .obeys(let count, let every):
        return .run { send in
          for index in 0..<count {
            try await send.clock.sleep(for: .milliseconds(every))
            emitted.add()
            send(event(index))
          }
        }
      case .ignoresCancellation(let count, let every):
        return .run { send in
          for index in 0..<count {
            try? await send.clock.sleep(for: .milliseconds(every))
            emitted.add()
            send(event(index))
          }
        }
      case .finalEvent(let after):
        return .task {
          try await clock.sleep(for: .milliseconds(after))
          emitted.add()
          return event(0)
        }
      case .immediate(let count):
        emitted.add(count)
        return .send(contentsOf: (0..<count).map(event))
      case .nothing:
        return .none
      }
    }

    struct Figures {
      var cases = 0
      var states = 0
      var started = 0
      var cancelled = 0
      var emitted = 0
      var reduced = 0
      var dropped = 0
    }

    /// Runs a case; returns what went wrong, or `nil`.
    static func check(_ testCase: Case, figures: inout Figures) -> String? {
      struct Run: Hashable {
        var key: Int
        var generation: Int
      }
      let harness = Harness()
      let trace = Locked<[Event]>([])
      let generations = Locked<[Int: Int]>([:])
      let emitted = Counter()
      let activity = ActivityRecorder<State, Event>()
      let system = System(
        initial: State(requests: testCase.initial),
        reduce: { state, event in
          trace.withLock { $0.append(event) }
          reduce(&state, event)
        },
        feedbacks: [
          .requests(\.requests) { key in
            let generation = generations.withLock {
              $0[key, default: 0] += 1
              return $0[key]!
            }
            return effect(
              testCase.behaviours[key], key: key, generation: generation, emitted: emitted, clock: harness.clock)
          }
        ],
        environment: harness.environment, monitor: activity.monitor)
      // Whatever the outcome, nothing is left running.
      defer {
        system.stop()
        harness.settle()
      }
      testCase.script.run(on: system, harness)
      let entries = activity.all

      // 1. Starts and cancellations, state by state, against the set
      //    difference of the requests before and after.
      var running: Set<Int> = []
      // Keys by effect: an effect's later reports are matched by its id.
      var keyOf: [EffectID: Int] = [:]
      func key(_ id: EffectID) -> Int { keyOf[id] ?? -1 }
      var expectedStarts = testCase.initial
      var expectedCancels: Set<Int> = []
      var starts: Set<Int> = []
      var cancels: Set<Int> = []
      var moment = "the initial state \(testCase.initial.sorted())"
      func mismatch() -> String? {
        guard starts != expectedStarts || cancels != expectedCancels else { return nil }
        return "for \(moment): started \(starts.sorted()), cancelled \(cancels.sorted()); "
          + "the set difference says start \(expectedStarts.sorted()), cancel \(expectedCancels.sorted())"
      }
      var index = 0
      while index < entries.count {
        switch entries[index] {
        case .reduced(let event, let from, let to, let source):
          if let failure = mismatch() { return failure }
          figures.states += 1
          starts = []
          cancels = []
          // An effect's final event ends it before its state fans out.
          if case .effect(let id) = source, index + 1 < entries.count,
            case .effectFinished(let finished) = entries[index + 1], finished == id
          {
            running.remove(key(id))
            index += 1
          }
          expectedStarts = to.requests.subtracting(from.requests)
          expectedCancels = from.requests.subtracting(to.requests).intersection(running)
          moment = "the state after \(event) (\(from.requests.sorted()) -> \(to.requests.sorted()))"
        case .effectStarted(let id):
          keyOf[id] = Int(id.trigger ?? "") ?? -1
          starts.insert(key(id))
          running.insert(key(id))
          figures.started += 1
        case .effectCancelled(let id):
          cancels.insert(key(id))
          running.remove(key(id))
          figures.cancelled += 1
        case .effectFinished(let id):
          running.remove(key(id))
        default:
          break
        }
        index += 1
      }
      if let failure = mismatch() { return failure }

      // 2. The events: each from the running generation of a request the
      //    state holds, in order, none twice.
      var requests = testCase.initial
      var generation = Dictionary(uniqueKeysWithValues: testCase.initial.map { ($0, 1) })
      var next: [Run: Int] = [:]
      for (position, event) in trace.current.enumerated() {
        if case .progress(let key, let eventGeneration, let eventIndex) = event {
          guard requests.contains(key), generation[key] == eventGeneration else {
            return "event \(position), \(event), reached the reducer while the requests were \(requests.sorted()) "
              + "and key \(key) was at generation \(generation[key] ?? 0)"
          }
          let run = Run(key: key, generation: eventGeneration)
          guard eventIndex == next[run, default: 0] else {
            return "event \(position), \(event), out of order: expected #\(next[run, default: 0])"
          }
          next[run] = eventIndex + 1
        } else {
          var state = State(requests: requests)
          reduce(&state, event)
          for key in state.requests.subtracting(requests) { generation[key, default: 0] += 1 }
          requests = state.requests
        }
      }
      if generations.current != generation {
        return "the feedback started generations \(generations.current.sorted { $0.key < $1.key }); "
          + "the set differences say \(generation.sorted { $0.key < $1.key })"
      }
      // 3. Nothing lost: each request still held has delivered all its events.
      for key in requests {
        let delivered = next[Run(key: key, generation: generation[key]!), default: 0]
        if delivered != testCase.behaviours[key].eventCount {
          return "request \(key), held to the end, delivered \(delivered) of "
            + "\(testCase.behaviours[key].eventCount) events"
        }
      }
      system.stop()
      harness.settle()
      let reduced = next.values.reduce(0, +)
      let dropped = activity.discarded.count
      if emitted.value != reduced + dropped {
        return "effects emitted \(emitted.value) events: \(reduced) reduced, \(dropped) reported discarded"
      }
      if system.runningTaskCount != 0 { return "\(system.runningTaskCount) tasks still running after stop" }
      figures.emitted += emitted.value
      figures.reduced += reduced
      figures.dropped += dropped
      return nil
    }

    @Test("G6 random schedules: keyed requests start and cancel exactly as the set difference says")
    func keyedRequestsFollowTheSetDifference() async {
      var figures = Figures()
      figures.cases = await Property.check(
        "G6 keyed requests follow the set difference", input: Self.generator
      ) { testCase in
        var scratch = Figures()
        let failure = Self.check(testCase, figures: &scratch)
        if failure == nil {
          figures.states += scratch.states
          figures.started += scratch.started
          figures.cancelled += scratch.cancelled
          figures.emitted += scratch.emitted
          figures.reduced += scratch.reduced
          figures.dropped += scratch.dropped
        }
        return failure
      }
      reportFigure(
        "G6 keyed: \(figures.cases) random schedules, \(figures.states) states checked against the set difference, "
          + "\(figures.started) effects started, \(figures.cancelled) cancelled, \(figures.emitted) events emitted, "
          + "\(figures.reduced) reduced, \(figures.dropped) dropped and reported, 0 lost")
    }
  }
}
