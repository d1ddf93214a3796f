import FeedbackLoop
import FeedbackLoopScenarios
import FeedbackLoopTesting
import Logging
import Testing

/// The feedback forms not covered by the guarantee tests: the general
/// stream form, deriving, event-triggered, and the effect combinators.
@Suite(.runsLeftoverJobs) struct FeedbackKindTests {
  enum Event: Sendable, Equatable {
    case add(Int)
    case note(String)
  }

  struct State: Sendable, Equatable {
    var total = 0
    var notes: [String] = []
  }

  static func reduce(_ state: inout State, _ event: Event) {
    switch event {
    case .add(let amount): state.total += amount
    case .note(let note): state.notes.append(note)
    }
  }

  @Test("the general form receives every state in order and its events are reduced")
  func generalForm() {
    let harness = Harness()
    let system = System(
      initial: State(), reduce: Self.reduce,
      feedbacks: [
        Feedback.events({ states in
          states.compactMap { state -> Event? in
            state.total == 2 ? .note("saw 2 after \(state.notes.count) notes") : nil
          }
        })
      ],
      environment: harness.environment)
    system.send(.add(1))
    system.send(.add(1))
    system.send(.add(1))
    harness.settle()
    #expect(system.state.notes == ["saw 2 after 0 notes"])
    #expect(system.state.total == 3)
    system.stop()
    harness.settle()
    #expect(system.runningTaskCount == 0)
  }

  @Test("deriving: each derived value triggers the effect, replacing the running one")
  func deriving() {
    let harness = Harness()
    let activity = ActivityLog<State, Event>()
    let system = System(
      initial: State(), reduce: Self.reduce,
      feedbacks: [
        Feedback.deriving({ states in states.map(\.total).filter { $0 > 0 } }) { total in
          .after(.seconds(1), send: .note("derived \(total)"))
        }
      ],
      environment: harness.environment, monitor: activity.monitor)
    system.send(.add(1))
    harness.settle()
    system.send(.add(1))
    harness.clock.advance(by: .seconds(1))
    #expect(system.state.notes == ["derived 2"])  // 1 was replaced by 2
    #expect(activity.cancelled.map(\.trigger) == ["1"])
  }

  @Test("onEvent: the event and the state it produced trigger an effect; .none leaves running effects alone")
  func eventTriggered() {
    let harness = Harness()
    let system = System(
      initial: State(), reduce: Self.reduce,
      feedbacks: [
        .onEvent { event, state in
          guard case .add(let amount) = event, amount > 10 else { return .none }
          return .after(.seconds(1), send: .note("big add, total \(state.total)"))
        }
      ],
      environment: harness.environment)
    system.send(.add(20))
    system.send(.add(1))  // .none: the running effect goes on
    harness.clock.advance(by: .seconds(1))
    #expect(system.state.notes == ["big add, total 20"])
  }

  @Test("Effect.sequence sends every element; Effect.map and catch transform events and errors")
  func effectCombinators() {
    struct Oops: Error {}
    let harness = Harness()
    let system = System(
      initial: State(), reduce: Self.reduce,
      feedbacks: [
        Feedback.query({ _ in "always" }) { _ in  // a constant query: never restarted, never cancelled
          .sequence(
            AsyncStream { continuation in
              continuation.yield(.add(1))
              continuation.yield(.add(2))
              continuation.finish()
            })
        },
        Feedback.query({ $0.total == 3 ? 3 : nil }) { _ in
          Effect<String>.task { "mapped" }.map { Event.note($0) }
        },
        Feedback.query({ $0.notes.count == 1 ? 1 : nil }) { _ in
          Effect<Event>.task { throw Oops() }.catch { _ in .note("caught") }
        },
      ],
      environment: harness.environment)
    harness.settle()
    #expect(system.state == State(total: 3, notes: ["mapped", "caught"]))
  }

  @Test("a main-actor system receives effects' events with one hop to the main actor")
  @MainActor
  func mainActorEffects() async {
    let system = System(
      initial: State(), reduce: Self.reduce,
      feedbacks: [
        Feedback.query({ $0.total == 1 ? 1 : nil }) { _ in .task { .note("from a task") } }
      ],
      isolation: .mainActor)
    let states = system.states
    system.send(.add(1))
    for await state in states where !state.notes.isEmpty { break }
    #expect(system.state.notes == ["from a task"])
  }

  @Test("the logging monitor writes every event and state change through swift-log")
  func loggingMonitorAndReducer() {
    let lines = Log<String>()
    let logger = Logger(label: "test") { _ in CapturingLogHandler(log: lines) }
    let system = System(
      initial: 0,
      reduceReturning: { (count: Int, event: Event) in
        guard case .add(let amount) = event else { return count }
        return count + amount
      },
      feedbacks: [Feedback.query({ $0 == 1 ? 1 : nil }, name: "echo") { _ in .send(.add(1)) }],
      monitor: .logging(to: logger, level: .info))
    system.send(.add(1))
    let log = lines.entries
    #expect(log.contains { $0.hasPrefix("info started in 0") })
    #expect(log.contains { $0.hasPrefix("info event add(1): 0 -> 1") })
    #expect(log.contains { $0.contains("event add(1): 1 -> 2") && $0.contains("echo") })
    #expect(log.contains { $0.contains("started #0 echo effect 1 for 1") })
  }

  @Test("an Input binds to one system; stopping the observer ends its deliveries")
  func observationCancel() {
    let input = Input<Event>()
    let system = System(initial: State(), reduce: Self.reduce, feedbacks: [.input(input)])
    let seen = Log<Int>()
    let observation = system.observe { seen.append($0.total) }
    input.send(.add(1))
    observation.cancel()
    input.send(.add(1))
    #expect(seen.entries == [0, 1])
    #expect(system.state.total == 2)
  }
}

@Suite(.runsLeftoverJobs) struct EffectExecutorPreferenceTests {
  enum Event: Sendable, Equatable { case ran }

  @Test("an effect's executor preference overrides the environment's")
  func executorPreference() {
    let harness = Harness()
    let other = ManualTaskExecutor()
    let system = System(
      initial: 0, reduceReturning: { (count: Int, _: Event) in count + 1 },
      feedbacks: [
        Feedback.query({ $0 == 0 ? 0 : nil }) { _ in Effect<Event>.task { .ran }.executorPreference(other) }
      ],
      environment: harness.environment)
    harness.settle()
    #expect(system.state == 0)  // its task waits on the other executor
    other.runUntilIdle()
    #expect(system.state == 1)
  }
}

@Suite(.runsLeftoverJobs) struct ObservationEndTests {
  @Test("an observation's onStop is called when the system stops")
  func onStop() {
    let system = System(initial: 0, reduceReturning: { (count: Int, amount: Int) in count + amount })
    let log = Log<String>()
    let observation = system.observe {
      log.append("state \($0)")
    } onStop: {
      log.append("stopped")
    }
    system.send(1)
    system.stop()
    #expect(log.entries == ["state 0", "state 1", "stopped"])
    #expect(system.isolation == .sendingThread)
    observation.cancel()
  }
}
