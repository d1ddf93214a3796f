import FeedbackLoop
import FeedbackLoopTesting
import PropertyBased
import Testing

extension Reliability {
  /// G6 by id on random schedules: ids start and cancel as the set
  /// difference of the ids says, and a kept id whose value changes hands the
  /// new value to its running effect instead of restarting it.
  @Suite("Properties: keyed requests by id")
  struct KeyedValueProperties {
    static let ids = 0...3

    struct State: Sendable, Equatable {
      var values: [Int: Int] = [:]
    }

    enum Event: Sendable, Equatable, CustomStringConvertible {
      case set(id: Int, value: Int?)
      case replace([Int: Int])
      case seen(id: Int, generation: Int, value: Int)

      var description: String {
        switch self {
        case .set(let id, let value): "set(\(id), \(value.map(String.init) ?? "nil"))"
        case .replace(let values): "replace(\(values.sorted { $0.key < $1.key }))"
        case .seen(let id, let generation, let value): "seen(id \(id), generation \(generation), value \(value))"
        }
      }
    }

    static func reduce(_ state: inout State, _ event: Event) {
      switch event {
      case .set(let id, let value): state.values[id] = value
      case .replace(let values): state.values = values
      case .seen: break
      }
    }

    struct Case: CustomStringConvertible {
      var initial: [Int: Int]
      var script: Script<Event>

      var description: String {
        "    initial values: \(initial.sorted { $0.key < $1.key })\n" + script.description
      }
    }

    static var values: Generator<[Int: Int], Shrink.None<[Int: Int]>> {
      unshrunk { rng in
        var values: [Int: Int] = [:]
        for id in ids where rng.chance(50) { values[id] = rng.int(in: 0...4) }
        return values
      }
    }

    static var generator: Generator<Case, some SendableSequenceType> {
      let events = Gen<Event>.frequency(
        (
          weight: 5,
          gen: unshrunk { rng in .set(id: rng.int(in: ids), value: rng.chance(25) ? nil : rng.int(in: 0...4)) }
        ),
        (weight: 1, gen: values.map { .replace($0) })
      )
      return zip(values, Script.generator(events: events)).map { Case(initial: $0, script: $1) }
    }

    /// Runs a case; returns what went wrong, or `nil`.
    static func check(_ testCase: Case, figures: inout (states: Int, updates: Int, emitted: Int)) -> String? {
      struct Run: Hashable {
        var id: Int
        var generation: Int
      }
      let harness = Harness()
      let trace = Locked<[Event]>([])
      let generations = Locked<[Int: Int]>([:])
      let emitted = Counter()
      let activity = ActivityRecorder<State, Event>()
      let system = System(
        initial: State(values: testCase.initial),
        reduce: { state, event in
          trace.withLock { $0.append(event) }
          reduce(&state, event)
        },
        feedbacks: [
          .requests(\.values) { id, initial, updates in
            let generation = generations.withLock {
              $0[id, default: 0] += 1
              return $0[id]!
            }
            // Reports every value it is handed; ends on its own at a 0.
            return .run { send in
              var value: Int? = initial
              var iterator = updates.makeAsyncIterator()
              while let current = value {
                emitted.add()
                send(.seen(id: id, generation: generation, value: current))
                if current == 0 { return }
                value = await iterator.next()
              }
            }
          }
        ],
        environment: harness.environment, monitor: activity.monitor)
      defer {
        system.stop()
        harness.settle()
      }
      testCase.script.run(on: system, harness)

      // 1. Starts and cancellations follow the set difference of the ids,
      //    whatever the values do.
      var running: Set<Int> = []
      var idOf: [EffectID: Int] = [:]
      var expected = (starts: Set(testCase.initial.keys), cancels: Set<Int>())
      var seen = (starts: Set<Int>(), cancels: Set<Int>())
      var moment = "the initial state"
      func mismatch() -> String? {
        guard seen.starts != expected.starts || seen.cancels != expected.cancels else { return nil }
        return "for \(moment): started \(seen.starts.sorted()), cancelled \(seen.cancels.sorted()); "
          + "the set difference says start \(expected.starts.sorted()), cancel \(expected.cancels.sorted())"
      }
      for entry in activity.all {
        switch entry {
        case .reduced(let event, let from, let to, _):
          if let failure = mismatch() { return failure }
          figures.states += 1
          seen = ([], [])
          let before = Set(from.values.keys)
          let after = Set(to.values.keys)
          expected = (after.subtracting(before), before.subtracting(after).intersection(running))
          moment = "the state after \(event)"
        case .effectStarted(let id):
          idOf[id] = Int(id.trigger ?? "") ?? -1
          seen.starts.insert(idOf[id]!)
          running.insert(idOf[id]!)
        case .effectCancelled(let id):
          seen.cancels.insert(idOf[id] ?? -1)
          running.remove(idOf[id] ?? -1)
        case .effectFinished(let id):
          running.remove(idOf[id] ?? -1)
        default:
          break
        }
      }
      if let failure = mismatch() { return failure }

      // 2. What each effect saw: only while its id is held, at its
      //    generation; and, for an effect still running at the end, the
      //    id's last value.
      var values = testCase.initial
      var generation = Dictionary(uniqueKeysWithValues: testCase.initial.keys.map { ($0, 1) })
      var lastSeen: [Run: Int] = [:]
      for (position, event) in trace.current.enumerated() {
        if case .seen(let id, let eventGeneration, let value) = event {
          guard values[id] != nil, generation[id] == eventGeneration else {
            return "event \(position), \(event), reached the reducer while the ids were "
              + "\(values.keys.sorted()) and id \(id) was at generation \(generation[id] ?? 0)"
          }
          lastSeen[Run(id: id, generation: eventGeneration)] = value
        } else {
          var state = State(values: values)
          reduce(&state, event)
          for id in Set(state.values.keys).subtracting(values.keys) { generation[id, default: 0] += 1 }
          values = state.values
        }
      }
      if generations.current != generation {
        return "the feedback started generations \(generations.current.sorted { $0.key < $1.key }); "
          + "the set differences say \(generation.sorted { $0.key < $1.key })"
      }
      for (id, value) in values {
        let last = lastSeen[Run(id: id, generation: generation[id]!)]
        if last != 0, last != value {
          return "id \(id), held to the end with value \(value), last handed \(last.map(String.init) ?? "nothing") "
            + "to its running effect"
        }
      }
      figures.updates += lastSeen.count
      figures.emitted += emitted.value
      return nil
    }

    @Test(
      "G6 random schedules: ids start and cancel as the set difference says; a changed value reaches the running effect"
    )
    func keyedValuesFollowTheSetDifference() async {
      var figures = (states: 0, updates: 0, emitted: 0)
      let cases = await Property.check("G6 keyed requests by id", input: Self.generator) { testCase in
        var scratch = (states: 0, updates: 0, emitted: 0)
        let failure = Self.check(testCase, figures: &scratch)
        if failure == nil {
          figures.states += scratch.states
          figures.updates += scratch.updates
          figures.emitted += scratch.emitted
        }
        return failure
      }
      reportFigure(
        "G6 keyed by id: \(cases) random schedules, \(figures.states) states checked against the set difference, "
          + "\(figures.emitted) values reported by running effects, every id held to the end handed its last value")
    }
  }
}
