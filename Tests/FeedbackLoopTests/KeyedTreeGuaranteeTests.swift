import FeedbackLoop
import FeedbackLoopScenarios
import FeedbackLoopTesting
import HashTreeCollections
import Testing

/// G6 for `requests(_:)` over persistent collections (`TreeSet`,
/// `TreeDictionary`): the same guarantees as over `Set` and `Dictionary`,
/// found by structural diffs, so they are checked on large collections too,
/// where most of the tree is shared between two states.
@Suite(.runsLeftoverJobs) struct KeyedTreeGuaranteeTests {
  struct State: Sendable, Equatable {
    var requests: TreeSet<String> = []
    var priorities: TreeDictionary<String, Int> = [:]
    var log: [String] = []
    var trigger = 0
  }

  enum Event: Sendable, Equatable {
    case add(String), remove(String)
    /// Several requests at once: removed, then added.
    case change(removing: [String], adding: [String])
    /// Several priorities at once; `nil` removes the id.
    case setPriorities([String: Int?])
    case log(String)
    case fire
  }

  static func reduce(_ state: inout State, _ event: Event) {
    switch event {
    case .add(let request): state.requests.insert(request)
    case .remove(let request): state.requests.remove(request)
    case .change(let removing, let adding):
      for request in removing { state.requests.remove(request) }
      for request in adding { state.requests.insert(request) }
    case .setPriorities(let priorities):
      for (id, priority) in priorities { state.priorities[id] = priority }
    case .log(let line): state.log.append(line)
    case .fire: state.trigger += 1
    }
  }

  static func names(_ range: Range<Int>) -> [String] { range.map { "k\($0)" } }

  // MARK: TreeSet

  @Test("G6 TreeSet requests: new ones start, removed ones are cancelled, kept ones go on untouched")
  func test_G6_treeSetDifference() {
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
    #expect(activity.started.compactMap(\.trigger) == ["a", "b"])
    #expect(activity.cancelled.map(\.trigger) == ["a"])
    harness.clock.advance(by: .seconds(1))
    #expect(system.state.log == ["done b"])
  }

  @Test(
    "G6 TreeSet requests: a window sliding over 1,000 requests starts each new one and cancels each removed one, once")
  func test_G6_treeSetSlidingWindow() {
    let harness = Harness()
    let activity = ActivityLog<State, Event>()
    let system = System(
      initial: State(requests: TreeSet(Self.names(0..<1_000))), reduce: Self.reduce,
      feedbacks: [
        .requests(\.requests) { request in .after(.seconds(60), send: .log("done \(request)")) }
      ],
      environment: harness.environment, monitor: activity.monitor)
    for step in 0..<50 {
      system.send(.change(removing: ["k\(step)"], adding: ["k\(1_000 + step)"]))
    }
    // Two removed and two added by one state.
    system.send(.change(removing: ["k50", "k51"], adding: ["k1050", "k1051"]))
    #expect(Set(activity.started.compactMap(\.trigger)) == Set(Self.names(0..<1_052)))
    #expect(activity.started.count == 1_052)
    #expect(activity.started.suffix(52).compactMap(\.trigger).prefix(50) == ArraySlice(Self.names(1_000..<1_050)))
    #expect(activity.cancelled.compactMap(\.trigger).prefix(50) == ArraySlice(Self.names(0..<50)))
    #expect(Set(activity.cancelled.compactMap(\.trigger)) == Set(Self.names(0..<52)))
    #expect(activity.cancelled.count == 52)
    system.stop()
  }

  @Test("G6 TreeSet requests: an effect that finished on its own is not restarted while its request stays")
  func test_G6_treeSetFinishedEffectIsNotRestarted() {
    let harness = Harness()
    let activity = ActivityLog<State, Event>()
    let system = System(
      initial: State(requests: ["x"]), reduce: Self.reduce,
      feedbacks: [
        .requests(\.requests) { request in .after(.seconds(1), send: .log("ran \(request)")) }
      ],
      environment: harness.environment, monitor: activity.monitor)
    harness.clock.advance(by: .seconds(1))
    #expect(system.state.log == ["ran x"])
    system.send(.fire)  // "x" stays, its effect has finished
    system.send(.add("y"))
    harness.clock.advance(by: .seconds(3))
    #expect(system.state.log == ["ran x", "ran y"])
    #expect(activity.started.compactMap(\.trigger) == ["x", "y"])
    system.send(.remove("x"))
    system.send(.add("x"))  // removed then added again: a new request
    harness.clock.advance(by: .seconds(1))
    #expect(system.state.log == ["ran x", "ran y", "ran x"])
  }

  // MARK: TreeDictionary

  /// A feedback that logs each id's start and every value handed to it.
  static func priorityFeedback() -> Feedback<State, Event> {
    .requests(\.priorities) { id, initial, updates in
      .run { send in
        send(.log("\(id) starts at \(initial)"))
        for await priority in updates { send(.log("\(id) now \(priority)")) }
      }
    }
  }

  @Test("G6 TreeDictionary requests: new ids start, removed ones are cancelled, kept ones go on untouched")
  func test_G6_treeDictionaryDifference() {
    let harness = Harness()
    let activity = ActivityLog<State, Event>()
    let system = System(
      initial: State(), reduce: Self.reduce, feedbacks: [Self.priorityFeedback()],
      environment: harness.environment, monitor: activity.monitor)
    system.send(.setPriorities(["a": 1]))
    harness.settle()
    system.send(.setPriorities(["b": 2]))  // "a" goes on untouched
    harness.settle()
    system.send(.setPriorities(["a": nil]))  // "a" is cancelled
    harness.settle()
    #expect(system.state.log == ["a starts at 1", "b starts at 2"])
    #expect(activity.started.compactMap(\.trigger) == ["a", "b"])
    #expect(activity.cancelled.map(\.trigger) == ["a"])
    #expect(system.runningTaskCount == 1)
    system.stop()
  }

  @Test("G6 TreeDictionary requests: a kept id whose value changed hands the new value to its running effect")
  func test_G6_treeDictionaryKeptIDReceivesNewValue() {
    let harness = Harness()
    let activity = ActivityLog<State, Event>()
    let system = System(
      initial: State(), reduce: Self.reduce, feedbacks: [Self.priorityFeedback()],
      environment: harness.environment, monitor: activity.monitor)
    system.send(.setPriorities(["upload": 1]))
    harness.settle()
    system.send(.setPriorities(["upload": 5]))
    harness.settle()
    system.send(.setPriorities(["upload": 5]))  // the same value: nothing to hand over
    harness.settle()
    system.send(.setPriorities(["upload": nil]))
    harness.settle()
    #expect(system.state.log == ["upload starts at 1", "upload now 5"])
    #expect(activity.started.count == 1)
    #expect(activity.cancelled.count == 1)
    #expect(system.runningTaskCount == 0)
  }

  @Test(
    "G6 TreeDictionary requests: among 1,000 ids, one state that adds, removes and changes ids starts, cancels and hands over exactly those"
  )
  func test_G6_treeDictionaryChangesAmongManyIDs() {
    let harness = Harness()
    let activity = ActivityLog<State, Event>()
    let initial = TreeDictionary(uniqueKeysWithValues: Self.names(0..<1_000).map { ($0, 0) })
    let system = System(
      initial: State(priorities: initial), reduce: Self.reduce, feedbacks: [Self.priorityFeedback()],
      environment: harness.environment, monitor: activity.monitor)
    harness.settle()
    #expect(system.state.log.count == 1_000)
    system.send(.setPriorities(["k1000": 7, "k3": nil]))  // added and removed, no value changed
    harness.settle()
    #expect(system.state.log.suffix(1) == ["k1000 starts at 7"])
    system.send(.setPriorities(["k1001": 8, "k4": nil, "k500": 9, "k999": 9]))  // and two values changed
    harness.settle()
    #expect(system.state.log.count == 1_004)
    #expect(Set(system.state.log.suffix(3)) == ["k500 now 9", "k999 now 9", "k1001 starts at 8"])
    #expect(activity.started.count == 1_002)
    #expect(activity.cancelled.compactMap(\.trigger) == ["k3", "k4"])
    #expect(system.runningTaskCount == 1_000)
    system.stop()
  }

  @Test("G6 TreeDictionary requests: an effect that finished on its own is not restarted while its id stays")
  func test_G6_treeDictionaryFinishedEffectIsNotRestarted() {
    let harness = Harness()
    let activity = ActivityLog<State, Event>()
    let system = System(
      initial: State(priorities: ["x": 1]), reduce: Self.reduce,
      feedbacks: [
        .requests(\.priorities) { id, value, _ in .after(.seconds(1), send: .log("ran \(id) at \(value)")) }
      ],
      environment: harness.environment, monitor: activity.monitor)
    harness.clock.advance(by: .seconds(1))
    #expect(system.state.log == ["ran x at 1"])
    system.send(.fire)  // "x" stays, its effect has finished
    system.send(.setPriorities(["y": 2]))
    system.send(.setPriorities(["x": 3]))  // a new value for a finished effect: not restarted
    harness.clock.advance(by: .seconds(3))
    #expect(system.state.log == ["ran x at 1", "ran y at 2"])
    #expect(activity.started.compactMap(\.trigger) == ["x", "y"])
    system.send(.setPriorities(["x": nil]))
    system.send(.setPriorities(["x": 4]))  // removed then added again: a new request
    harness.clock.advance(by: .seconds(1))
    #expect(system.state.log == ["ran x at 1", "ran y at 2", "ran x at 4"])
  }
}
