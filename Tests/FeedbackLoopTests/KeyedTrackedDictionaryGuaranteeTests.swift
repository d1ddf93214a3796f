import FeedbackLoop
import FeedbackLoopScenarios
import FeedbackLoopTesting
import Testing

/// G6 for `requests(_:)` by id over a `TrackedDictionary`: the
/// guarantees of the `Dictionary` form, found from the dictionary's change
/// log. As for `TrackedSet`, each scenario runs without a monitor (the log is
/// read) and with one (which keeps a copy of every state, so the feedback
/// compares whole dictionaries); the effects record what they are handed.
@Suite(.runsLeftoverJobs) struct KeyedTrackedDictionaryGuaranteeTests {
  struct State: Sendable, Equatable {
    var priorities: TrackedDictionary<String, Int> = [:]
    var log: [String] = []
    var trigger = 0
  }

  enum Event: Sendable, Equatable {
    /// Several priorities at once; `nil` removes the id.
    case set([String: Int?])
    case replace(with: [String: Int])
    case log(String)
    case fire
  }

  static func reduce(_ state: inout State, _ event: Event) {
    switch event {
    case .set(let priorities):
      for (id, priority) in priorities.sorted(by: { $0.key < $1.key }) { state.priorities[id] = priority }
    case .replace(let priorities): state.priorities = TrackedDictionary(priorities)
    case .log(let line): state.log.append(line)
    case .fire: state.trigger += 1
    }
  }

  static func names(_ range: Range<Int>) -> [String] { range.map { "k\($0)" } }

  /// A system whose effect, per id, logs its start and every value handed to
  /// it, and records its cancellation.
  struct Probe {
    let harness = Harness()
    let cancellations = Log<String>()
    let system: System<State, Event>

    init(initial: State = State(), monitored: Bool) {
      let cancellations = cancellations
      system = System(
        initial: initial, reduce: KeyedTrackedDictionaryGuaranteeTests.reduce,
        feedbacks: [
          .requests(\.priorities) { id, initial, updates in
            .run { send in
              await withTaskCancellationHandler {
                send(.log("\(id) starts at \(initial)"))
                for await priority in updates { send(.log("\(id) now \(priority)")) }
              } onCancel: {
                cancellations.append(id)
              }
            }
          }
        ],
        environment: harness.environment,
        monitor: monitored ? SystemMonitor { _ in } : nil)
    }

    func send(_ event: Event) {
      system.send(event)
      harness.settle()
    }
  }

  @Test(
    "G6 TrackedDictionary requests: new ids start, removed ones are cancelled, kept ones go on untouched",
    arguments: [false, true])
  func test_G6_trackedDictionaryDifference(monitored: Bool) {
    let probe = Probe(monitored: monitored)
    probe.send(.set(["a": 1]))
    probe.send(.set(["b": 2]))  // "a" goes on untouched
    probe.send(.set(["a": nil]))  // "a" is cancelled
    #expect(probe.system.state.log == ["a starts at 1", "b starts at 2"])
    #expect(probe.cancellations.entries == ["a"])
    #expect(probe.system.runningTaskCount == 1)
    probe.system.stop()
  }

  @Test(
    "G6 TrackedDictionary requests: a kept id whose value changed hands the new value over; an equal value hands nothing",
    arguments: [false, true])
  func test_G6_trackedDictionaryKeptIDReceivesNewValue(monitored: Bool) {
    let probe = Probe(monitored: monitored)
    probe.send(.set(["upload": 1]))
    probe.send(.set(["upload": 5]))
    probe.send(.set(["upload": 5]))  // written again, the same value
    probe.send(.set(["upload": 6, "other": 1]))
    probe.send(.set(["other": nil]))
    probe.send(.set(["upload": nil]))
    #expect(
      probe.system.state.log == ["upload starts at 1", "upload now 5", "other starts at 1", "upload now 6"]
        || probe.system.state.log == ["upload starts at 1", "upload now 5", "upload now 6", "other starts at 1"])
    #expect(Set(probe.cancellations.entries) == ["other", "upload"])
    #expect(probe.system.runningTaskCount == 0)
  }

  @Test(
    "G6 TrackedDictionary requests: among 1,000 ids, one state that adds, removes and changes ids starts, cancels and hands over exactly those",
    arguments: [false, true])
  func test_G6_trackedDictionaryChangesAmongManyIDs(monitored: Bool) {
    let initial = TrackedDictionary(Dictionary(uniqueKeysWithValues: Self.names(0..<1_000).map { ($0, 0) }))
    let probe = Probe(initial: State(priorities: initial), monitored: monitored)
    probe.harness.settle()
    #expect(probe.system.state.log.count == 1_000)
    probe.send(.set(["k1000": 7, "k3": nil]))
    #expect(probe.system.state.log.suffix(1) == ["k1000 starts at 7"])
    // Two values changed, one written unchanged, one added, one removed.
    probe.send(.set(["k1001": 8, "k4": nil, "k500": 9, "k999": 9, "k10": 0]))
    #expect(probe.system.state.log.count == 1_004)
    #expect(Set(probe.system.state.log.suffix(3)) == ["k500 now 9", "k999 now 9", "k1001 starts at 8"])
    #expect(probe.cancellations.entries == ["k3", "k4"])
    #expect(probe.system.runningTaskCount == 1_000)
    probe.system.stop()
  }

  @Test(
    "G6 TrackedDictionary requests: an effect that finished on its own is not restarted while its id stays",
    arguments: [false, true])
  func test_G6_trackedDictionaryFinishedEffectIsNotRestarted(monitored: Bool) {
    let harness = Harness()
    let system = System(
      initial: State(priorities: ["x": 1]), reduce: Self.reduce,
      feedbacks: [
        .requests(\.priorities) { id, value, _ in .after(.seconds(1), send: .log("ran \(id) at \(value)")) }
      ],
      environment: harness.environment, monitor: monitored ? SystemMonitor { _ in } : nil)
    harness.clock.advance(by: .seconds(1))
    #expect(system.state.log == ["ran x at 1"])
    system.send(.fire)  // "x" stays, its effect has finished
    system.send(.set(["y": 2]))
    system.send(.set(["x": 3]))  // a new value for a finished effect: not restarted
    harness.clock.advance(by: .seconds(3))
    #expect(system.state.log == ["ran x at 1", "ran y at 2"])
    system.send(.set(["x": nil]))
    system.send(.set(["x": 4]))  // removed then added again: a new request
    harness.clock.advance(by: .seconds(1))
    #expect(system.state.log == ["ran x at 1", "ran y at 2", "ran x at 4"])
  }

  @Test(
    "G6 TrackedDictionary requests: more writes in one state than the log holds, and a dictionary replaced wholesale",
    arguments: [false, true])
  func test_G6_trackedDictionaryBeyondTheLog(monitored: Bool) {
    let initial = TrackedDictionary(Dictionary(uniqueKeysWithValues: Self.names(0..<200).map { ($0, 0) }))
    let probe = Probe(initial: State(priorities: initial), monitored: monitored)
    probe.harness.settle()
    // 100 removed, 100 changed, 50 added: more than the log keeps for 200 ids.
    var writes: [String: Int?] = [:]
    for name in Self.names(0..<100) { writes[name] = .some(nil) }
    for name in Self.names(100..<200) { writes[name] = 1 }
    for name in Self.names(200..<250) { writes[name] = 2 }
    probe.send(.set(writes))
    #expect(Set(probe.cancellations.entries) == Set(Self.names(0..<100)))
    #expect(probe.system.state.log.filter { $0.hasSuffix("now 1") }.count == 100)
    #expect(probe.system.state.log.filter { $0.hasSuffix("starts at 2") }.count == 50)
    #expect(probe.system.runningTaskCount == 150)
    // A new dictionary: kept ids with equal values go on untouched.
    probe.send(.replace(with: Dictionary(uniqueKeysWithValues: Self.names(200..<300).map { ($0, 2) })))
    #expect(Set(probe.cancellations.entries) == Set(Self.names(0..<200)))
    #expect(probe.system.state.log.filter { $0.hasSuffix("starts at 2") }.count == 100)
    #expect(!probe.system.state.log.contains { $0.hasSuffix("now 2") })
    #expect(probe.system.runningTaskCount == 100)
    probe.system.stop()
  }

  /// Hashes per event of `count` ids, each event removing one, adding one
  /// and changing the value of a third.
  static func hashesPerEvent(ids count: Int) -> Int {
    typealias Request = KeyedTrackedSetGuaranteeTests.CountedRequest
    struct Window: Sendable, Equatable {
      var requests: TrackedDictionary<Request, Int>
      var low: Int
    }
    let hashes = Log<Int>()
    let system = System(
      initial: Window(
        requests: TrackedDictionary(
          Dictionary(uniqueKeysWithValues: (0..<count).map { (Request(value: $0, hashes: hashes), 0) })),
        low: 0),
      reduce: { (window: inout Window, _: Int) in
        window.requests[Request(value: window.low, hashes: hashes)] = nil
        window.requests[Request(value: window.low + count, hashes: hashes)] = 0
        window.requests[Request(value: window.low + count / 2, hashes: hashes)] = window.low
        window.low += 1
      },
      feedbacks: [.requests(\.requests) { _, _, _ in .none }])
    // The first event also delivers the initial state, whose ids all start:
    // it is left out of the count.
    system.send(0)
    hashes.removeAll()
    for event in 1...100 { system.send(event) }
    let perEvent = hashes.entries.count / 100
    system.stop()
    return perEvent
  }

  @Test(
    "G6 TrackedDictionary requests: an event that writes three ids hashes a few ids, among 100 or among 10,000",
    arguments: [100, 1_000, 10_000])
  func test_G6_trackedDictionaryWorkIndependentOfCount(ids: Int) {
    // Measured 18, 20 and 25. Comparing whole dictionaries would hash every id.
    #expect(Self.hashesPerEvent(ids: ids) <= 48)
  }
}
