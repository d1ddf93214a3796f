import FeedbackLoop
import FeedbackLoopScenarios
import FeedbackLoopTesting
import Testing

/// G6 and G7: keyed effects and execution strategies.
@Suite(.runsLeftoverJobs) struct KeyedAndStrategyGuaranteeTests {
  struct State: Sendable, Equatable {
    var requests: Set<String> = []
    var priorities: [String: Int] = [:]
    var log: [String] = []
    var trigger = 0
  }

  enum Event: Sendable, Equatable {
    case add(String), remove(String)
    case setPriority(String, Int?)
    case log(String)
    case fire
  }

  static func reduce(_ state: inout State, _ event: Event) {
    switch event {
    case .add(let request): state.requests.insert(request)
    case .remove(let request): state.requests.remove(request)
    case .setPriority(let id, let priority): state.priorities[id] = priority
    case .log(let line): state.log.append(line)
    case .fire: state.trigger += 1
    }
  }

  @Test("G6 keyed requests: new ones start, removed ones are cancelled, kept ones go on untouched")
  func test_G6_keyedSetDifference() {
    let harness = Harness()
    let activity = ActivityLog<State, Event>()
    let system = System(
      initial: State(), reduce: Self.reduce,
      feedbacks: [
        .requests(\.requests) { request in
          .after(.seconds(2), send: .log("done \(request)"))
        }
      ],
      environment: harness.environment, monitor: activity.monitor)
    system.send(.add("a"))
    harness.clock.advance(by: .seconds(1))
    system.send(.add("b"))  // "a" goes on untouched
    system.send(.remove("a"))  // "a" is cancelled
    harness.clock.advance(by: .seconds(1))
    #expect(system.state.log.isEmpty)
    #expect(Set(activity.started.compactMap(\.trigger)) == ["a", "b"])
    #expect(activity.cancelled.map(\.trigger) == ["a"])
    harness.clock.advance(by: .seconds(1))
    #expect(system.state.log == ["done b"])
  }

  @Test("G6 an effect that finished on its own is not restarted while its request stays")
  func test_G6_finishedEffectIsNotRestarted() {
    let harness = Harness()
    let activity = ActivityLog<State, Event>()
    let system = System(
      initial: State(requests: ["x"]), reduce: Self.reduce,
      feedbacks: [
        .requests(\.requests) { request in .send(.log("ran \(request)")) }
      ],
      environment: harness.environment, monitor: activity.monitor)
    system.send(.fire)
    system.send(.add("y"))
    system.send(.fire)
    harness.settle()
    #expect(system.state.log == ["ran x", "ran y"])
    system.send(.remove("x"))
    system.send(.add("x"))  // removed then added again: a new request
    #expect(system.state.log == ["ran x", "ran y", "ran x"])
  }

  @Test("G6 a kept id whose value changed hands the new value to its running effect")
  func test_G6_keptIDReceivesNewValue() {
    let harness = Harness()
    let activity = ActivityLog<State, Event>()
    let system = System(
      initial: State(), reduce: Self.reduce,
      feedbacks: [
        .requests(\.priorities) { id, initial, updates in
          .run { send in
            send(.log("\(id) starts at \(initial)"))
            for await priority in updates { send(.log("\(id) now \(priority)")) }
          }
        }
      ],
      environment: harness.environment, monitor: activity.monitor)
    system.send(.setPriority("upload", 1))
    harness.settle()
    system.send(.setPriority("upload", 5))
    harness.settle()
    system.send(.setPriority("upload", nil))
    harness.settle()
    #expect(system.state.log == ["upload starts at 1", "upload now 5"])
    #expect(activity.started.count == 1)
    #expect(activity.cancelled.count == 1)
    #expect(system.runningTaskCount == 0)
  }

  /// Each trigger starts an effect that logs its start, waits 1 s, and logs its end.
  func timeline(_ strategy: ExecutionStrategy) -> [String] {
    let harness = Harness()
    let system = System(
      initial: State(), reduce: Self.reduce,
      feedbacks: [
        Feedback.query({ $0.trigger == 0 ? nil : $0.trigger }, strategy: strategy) { number in
          .run { send in
            send(.log("start \(number)"))
            try await send.clock.sleep(for: .seconds(1))
            send(.log("end \(number)"))
          }
        }
      ],
      environment: harness.environment)
    for _ in 0..<3 {
      system.send(.fire)
      harness.settle()
    }
    harness.clock.advance(by: .seconds(5))
    return system.state.log
  }

  @Test("G7 cancelPrevious: a new trigger cancels the running effect")
  func test_G7_cancelPrevious() {
    #expect(timeline(.cancelPrevious) == ["start 1", "start 2", "start 3", "end 3"])
  }

  @Test("G7 queue: the next effect starts when the previous ends, events concatenated")
  func test_G7_queue() {
    #expect(timeline(.queue) == ["start 1", "end 1", "start 2", "end 2", "start 3", "end 3"])
  }

  @Test("G7 merge: effects run side by side")
  func test_G7_merge() {
    #expect(timeline(.merge) == ["start 1", "start 2", "start 3", "end 1", "end 2", "end 3"])
  }
}

@Suite(.runsLeftoverJobs) struct QueueStrategyDetailTests {
  enum Event: Sendable, Equatable { case fire, log(String) }

  struct State: Sendable, Equatable {
    var trigger = 0
    var log: [String] = []
  }

  @Test("G7 queue: queued immediate effects all run once the running one ends; the monitor sees them queued")
  func queuedImmediateEffectsAllRun() {
    let harness = Harness()
    let activity = ActivityLog<State, Event>()
    let system = System(
      initial: State(),
      reduce: { (state: inout State, event: Event) in
        switch event {
        case .fire: state.trigger += 1
        case .log(let line): state.log.append(line)
        }
      },
      feedbacks: [
        Feedback.query({ $0.trigger == 0 ? nil : $0.trigger }, strategy: .queue) { number in
          number == 1 ? .after(.seconds(1), send: .log("slow 1")) : .send(.log("quick \(number)"))
        }
      ],
      environment: harness.environment, monitor: activity.monitor)
    system.send(.fire)
    system.send(.fire)
    system.send(.fire)
    harness.settle()
    #expect(activity.log.entries.filter { if case .effectQueued = $0 { true } else { false } }.count == 2)
    harness.clock.advance(by: .seconds(1))
    #expect(system.state.log == ["slow 1", "quick 2", "quick 3"])
  }

  @Test("events of an input sequence name their feedback as their source")
  func feedbackTaskSource() {
    let harness = Harness()
    let activity = ActivityLog<State, Event>()
    let (events, continuation) = AsyncStream<Event>.makeStream()
    let system = System(
      initial: State(),
      reduce: { (state: inout State, event: Event) in if case .log(let line) = event { state.log.append(line) }
      },
      feedbacks: [.input(events, name: "buttons")],
      environment: harness.environment, monitor: activity.monitor)
    continuation.yield(.log("tap"))
    harness.settle()
    #expect(system.state.log == ["tap"])
    let sources = activity.log.entries.compactMap { activity -> EventSource? in
      if case .reduced(_, _, _, let source) = activity { return source }
      return nil
    }
    #expect(sources.map(\.description) == ["#0 buttons"])
  }
}
