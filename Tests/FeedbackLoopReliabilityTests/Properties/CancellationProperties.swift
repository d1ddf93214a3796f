import FeedbackLoop
import FeedbackLoopTesting
import PropertyBased
import Testing

extension Reliability {
  /// G4 on random schedules: whatever an effect does (obeys cancellation,
  /// ignores it and keeps sending, sends a burst before its first
  /// suspension, ends with its event), none of its events reaches the
  /// reducer once its query has changed.
  @Suite("Properties: cancelled effects")
  struct CancellationProperties {
    struct State: Sendable, Equatable {
      var query: Int?
      var external = 0
    }

    enum Event: Sendable, Equatable, CustomStringConvertible {
      case setQuery(Int?)
      case external
      case effect(instance: Int, index: Int)

      var description: String {
        switch self {
        case .setQuery(let query): "setQuery(\(query.map(String.init) ?? "nil"))"
        case .external: "external"
        case .effect(let instance, let index): "effect(\(instance), \(index))"
        }
      }
    }

    /// What the effect for one query value does.
    enum Behaviour: Sendable, CustomStringConvertible {
      /// Sends `count` events, sleeping before each; stops when cancelled.
      case obeys(count: Int, every: Int)
      /// The same, but swallows the cancellation and sends the rest at once.
      case ignoresCancellation(count: Int, every: Int)
      /// Sends `count` events before its first suspension, then one more.
      case burstFirst(count: Int, every: Int)
      /// `Effect.task`: one event, after a wait, that ends the effect.
      case finalEvent(after: Int)
      /// `Effect.send(contentsOf:)`: events at once, no task.
      case immediate(count: Int)

      var eventCount: Int {
        switch self {
        case .obeys(let count, _), .ignoresCancellation(let count, _), .immediate(let count): count
        case .burstFirst(let count, _): count + 1
        case .finalEvent: 1
        }
      }

      var description: String {
        switch self {
        case .obeys(let count, let every): "obeys(\(count) events every \(every) ms)"
        case .ignoresCancellation(let count, let every): "ignoresCancellation(\(count) events every \(every) ms)"
        case .burstFirst(let count, let every): "burstFirst(\(count) events, one more after \(every) ms)"
        case .finalEvent(let after): "finalEvent(after \(after) ms)"
        case .immediate(let count): "immediate(\(count) events)"
        }
      }

      static var generator: Generator<Behaviour, Shrink.None<Behaviour>> {
        unshrunk { rng in
          let count = rng.int(in: 1...4)
          let every = rng.int(in: 1...300)
          switch rng.int(in: 0...4) {
          case 0: return .obeys(count: count, every: every)
          case 1: return .ignoresCancellation(count: count, every: every)
          case 2: return .burstFirst(count: count, every: every)
          case 3: return .finalEvent(after: every)
          default: return .immediate(count: count)
          }
        }
      }
    }

    /// A behaviour per query value (0...3) and a schedule.
    struct Case: CustomStringConvertible {
      var behaviours: [Behaviour]
      var script: Script<Event>

      var description: String {
        let plan = behaviours.enumerated().map { "    query \($0.offset): \($0.element)" }.joined(separator: "\n")
        return plan + "\n" + script.description
      }
    }

    static var generator: Generator<Case, some SendableSequenceType> {
      let events = Gen<Event>.frequency(
        (weight: 4, gen: Gen.int(in: -1...3).map { .setQuery($0 < 0 ? nil : $0) }),
        (weight: 1, gen: Gen.always(.external))
      )
      return zip(Behaviour.generator.array(of: 4), Script.generator(events: events))
        .map { Case(behaviours: $0, script: $1) }
    }

    static func effect(_ behaviour: Behaviour, instance: Int, emitted: Counter, clock: TestClock) -> Effect<Event> {
      @Sendable func event(_ index: Int) -> Event { .effect(instance: instance, index: index) }
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
      case .burstFirst(let count, let every):
        return .run { send in
          for index in 0..<count {
            emitted.add()
            send(event(index))
          }
          try await send.clock.sleep(for: .milliseconds(every))
          emitted.add()
          send(event(count))
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
      }
    }

    /// Runs a case; returns what went wrong, or `nil`.
    static func check(_ testCase: Case, figures: inout (emitted: Int, reduced: Int, dropped: Int)) -> String? {
      let harness = Harness()
      let trace = Locked<[Event]>([])
      let emitted = Counter()
      let started = Counter()
      let counts = ActivityCounts<State, Event>()
      let system = System(
        initial: State(),
        reduce: { state, event in
          trace.withLock { $0.append(event) }
          switch event {
          case .setQuery(let query): state.query = query
          case .external: state.external += 1
          case .effect: break
          }
        },
        feedbacks: [
          Feedback.query(\.query) { query in
            started.add()
            return effect(testCase.behaviours[query], instance: started.value, emitted: emitted, clock: harness.clock)
          }
        ],
        environment: harness.environment, monitor: counts.monitor)
      testCase.script.run(on: system, harness)
      system.stop()
      harness.settle()

      // The model: the query of each state decides which effect is live; an
      // effect's events must arrive while it is live, in order, none twice.
      var query: Int?
      var live: Int?
      var instances = 0
      var next: [Int: Int] = [:]
      for (position, event) in trace.current.enumerated() {
        switch event {
        case .setQuery(let value):
          if value != query {
            query = value
            if value != nil {
              instances += 1
              live = instances
            } else {
              live = nil
            }
          }
        case .external: break
        case .effect(let instance, let index):
          guard instance == live else {
            return "event \(position), \(event), of cancelled effect \(instance) reached the reducer "
              + "(live effect: \(live.map(String.init) ?? "none"))"
          }
          guard index == next[instance, default: 0] else {
            return "event \(position), \(event), out of order: expected index \(next[instance, default: 0])"
          }
          next[instance] = index + 1
        }
      }
      if started.value != instances {
        return "the feedback started \(started.value) effects; the query changed to non-nil \(instances) times"
      }
      if let live, let query, next[live, default: 0] != testCase.behaviours[query].eventCount {
        return "the live effect \(live) delivered \(next[live, default: 0]) of its "
          + "\(testCase.behaviours[query].eventCount) events"
      }
      // Nothing lost: every event an effect emitted was reduced, or reported
      // discarded with its reason.
      let reduced = next.values.reduce(0, +)
      let discarded = counts.discarded(.effectCancelled) + counts.discarded(.systemStopped)
      if emitted.value != reduced + discarded {
        return "effects emitted \(emitted.value) events: \(reduced) reduced, \(discarded) reported discarded"
      }
      if system.runningTaskCount != 0 { return "\(system.runningTaskCount) tasks still running after stop" }
      figures.emitted += emitted.value
      figures.reduced += reduced
      figures.dropped += discarded
      return nil
    }

    @Test("G4 random schedules: no event of a cancelled or replaced effect reaches the reducer, and none is lost")
    func cancelledEffectsNeverReachTheReducer() async {
      var figures = (emitted: 0, reduced: 0, dropped: 0)
      let cases = await Property.check(
        "G4 no event of a cancelled effect reaches the reducer", input: Self.generator
      ) { testCase in
        var scratch = (emitted: 0, reduced: 0, dropped: 0)
        let failure = Self.check(testCase, figures: &scratch)
        if failure == nil {
          figures.emitted += scratch.emitted
          figures.reduced += scratch.reduced
          figures.dropped += scratch.dropped
        }
        return failure
      }
      reportFigure(
        "G4 cancellation: \(cases) random schedules, \(figures.emitted) events emitted by effects, "
          + "\(figures.reduced) reduced while their effect was live, \(figures.dropped) dropped and reported, "
          + "0 reached the reducer after cancellation, 0 lost")
    }
  }
}
