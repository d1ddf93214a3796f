import FeedbackLoop
import FeedbackLoopScenarios
import FeedbackLoopTesting
import Testing

/// G6 for `requests(_:)` over a `TrackedSet`: the guarantees of the `Set`
/// form, found from the set's change log instead of a comparison of whole
/// sets. Each scenario runs twice: without a monitor, where the reducer
/// changes the set in place and the feedback reads the log (several changes
/// per state, a request changed twice between two states), and with one,
/// which is handed every state before and after its event and so keeps a
/// copy of the set alive: the feedback then compares whole sets. Starts are
/// recorded by the effects closure, cancellations by the effects' own
/// cancellation handlers, so that the log path is checked with no monitor.
@Suite(.runsLeftoverJobs) struct KeyedTrackedSetGuaranteeTests {
  struct State: Sendable, Equatable {
    var requests: TrackedSet<String> = []
    var log: [String] = []
    var trigger = 0
  }

  enum Event: Sendable, Equatable {
    case add(String), remove(String)
    /// Several requests at once: removed, then added.
    case change(removing: [String], adding: [String])
    case replace(with: [String])
    /// Inserted and removed again by one reduction.
    case flash(String)
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
    case .replace(let requests): state.requests = TrackedSet(requests)
    case .flash(let request):
      state.requests.insert(request)
      state.requests.remove(request)
    case .log(let line): state.log.append(line)
    case .fire: state.trigger += 1
    }
  }

  static func names(_ range: Range<Int>) -> [String] { range.map { "k\($0)" } }

  /// A system whose feedback starts, for each request, an effect that sends
  /// `done` after `seconds` on the test clock, recording starts and
  /// cancellations.
  struct Probe {
    let harness = Harness()
    let starts = Log<String>()
    let cancellations = Log<String>()
    let system: System<State, Event>

    init(initial: State = State(), seconds: Int = 60, monitored: Bool) {
      let (clock, starts, cancellations) = (harness.clock, starts, cancellations)
      system = System(
        initial: initial, reduce: KeyedTrackedSetGuaranteeTests.reduce,
        feedbacks: [
          .requests(\.requests) { request in
            starts.append(request)
            return .run { send in
              await withTaskCancellationHandler {
                if (try? await clock.sleep(for: .seconds(seconds))) != nil { send(.log("done \(request)")) }
              } onCancel: {
                cancellations.append(request)
              }
            }
          }
        ],
        environment: harness.environment,
        monitor: monitored ? SystemMonitor { _ in } : nil)
    }

    /// Runs the effects, so that every cancelled one has run its handler.
    func settle() { harness.settle() }
  }

  @Test(
    "G6 TrackedSet requests: new ones start, removed ones are cancelled, kept ones go on untouched",
    arguments: [false, true])
  func test_G6_trackedSetDifference(monitored: Bool) {
    let probe = Probe(seconds: 2, monitored: monitored)
    probe.system.send(.add("a"))
    probe.harness.clock.advance(by: .seconds(1))
    probe.system.send(.add("b"))  // "a" goes on untouched
    probe.system.send(.remove("a"))  // "a" is cancelled
    probe.harness.clock.advance(by: .seconds(1))
    #expect(probe.system.state.log.isEmpty)
    #expect(probe.starts.entries == ["a", "b"])
    #expect(probe.cancellations.entries == ["a"])
    probe.harness.clock.advance(by: .seconds(1))
    #expect(probe.system.state.log == ["done b"])
  }

  @Test(
    "G6 TrackedSet requests: a window sliding over 1,000 requests starts each new one and cancels each removed one, once",
    arguments: [false, true])
  func test_G6_trackedSetSlidingWindow(monitored: Bool) {
    let probe = Probe(initial: State(requests: TrackedSet(Self.names(0..<1_000))), monitored: monitored)
    #expect(probe.starts.entries.count == 1_000)
    for step in 0..<50 {
      probe.system.send(.change(removing: ["k\(step)"], adding: ["k\(1_000 + step)"]))
    }
    // Two removed and two added by one state.
    probe.system.send(.change(removing: ["k50", "k51"], adding: ["k1050", "k1051"]))
    probe.settle()
    #expect(probe.starts.entries.count == 1_052)
    #expect(Set(probe.starts.entries) == Set(Self.names(0..<1_052)))
    #expect(probe.starts.entries.suffix(52).prefix(50) == ArraySlice(Self.names(1_000..<1_050)))
    #expect(probe.cancellations.entries.count == 52)
    #expect(Set(probe.cancellations.entries) == Set(Self.names(0..<52)))
    #expect(probe.system.runningTaskCount == 1_000)
    probe.system.stop()
  }

  @Test(
    "G6 TrackedSet requests: an effect that finished on its own is not restarted while its request stays",
    arguments: [false, true])
  func test_G6_trackedSetFinishedEffectIsNotRestarted(monitored: Bool) {
    let probe = Probe(initial: State(requests: ["x"]), seconds: 1, monitored: monitored)
    probe.harness.clock.advance(by: .seconds(1))
    #expect(probe.system.state.log == ["done x"])
    probe.system.send(.fire)  // "x" stays, its effect has finished
    probe.system.send(.add("y"))
    probe.harness.clock.advance(by: .seconds(3))
    #expect(probe.system.state.log == ["done x", "done y"])
    #expect(probe.starts.entries == ["x", "y"])
    probe.system.send(.remove("x"))
    probe.system.send(.add("x"))  // removed then added again by two states: a new request
    probe.harness.clock.advance(by: .seconds(1))
    #expect(probe.system.state.log == ["done x", "done y", "done x"])
    #expect(probe.cancellations.entries.isEmpty)
  }

  @Test(
    "G6 TrackedSet requests: a request removed and added again by one state goes on, one added and removed never starts",
    arguments: [false, true])
  func test_G6_trackedSetComparesStatesNotChanges(monitored: Bool) {
    let probe = Probe(initial: State(requests: ["kept"]), monitored: monitored)
    probe.system.send(.change(removing: ["kept"], adding: ["kept"]))
    probe.system.send(.change(removing: [], adding: ["brief", "gone"]))
    probe.system.send(.change(removing: ["brief"], adding: ["new"]))
    probe.system.send(.change(removing: ["new"], adding: ["new"]))
    // Changed twice by one state, each ending where it started.
    probe.system.send(.change(removing: ["gone"], adding: ["gone"]))
    probe.system.send(.flash("never"))
    probe.settle()
    // "brief" and "gone" were added by one state: in either order.
    #expect(probe.starts.entries.count == 4)
    #expect(Set(probe.starts.entries) == ["kept", "brief", "gone", "new"])
    #expect(probe.cancellations.entries == ["brief"])
    #expect(probe.system.runningTaskCount == 3)
    probe.system.stop()
  }

  @Test(
    "G6 TrackedSet requests: more changes in one state than the log holds, and a set replaced wholesale",
    arguments: [false, true])
  func test_G6_trackedSetBeyondTheLog(monitored: Bool) {
    let probe = Probe(initial: State(requests: TrackedSet(Self.names(0..<200))), monitored: monitored)
    // 150 removed and 150 added: more than the log keeps for 200 requests.
    probe.system.send(.change(removing: Self.names(0..<150), adding: Self.names(200..<350)))
    probe.settle()
    #expect(probe.starts.entries.count == 350)
    #expect(Set(probe.cancellations.entries) == Set(Self.names(0..<150)))
    #expect(probe.system.runningTaskCount == 200)
    // A new set: the kept requests go on, the others are cancelled or started.
    probe.system.send(.replace(with: Self.names(300..<400)))
    probe.settle()
    #expect(probe.starts.entries.count == 400)
    #expect(Set(probe.starts.entries) == Set(Self.names(0..<400)))
    #expect(Set(probe.cancellations.entries) == Set(Self.names(0..<300)))
    #expect(probe.system.runningTaskCount == 100)
    probe.system.stop()
  }

  @Test("G6 TrackedSet requests: a copy kept by an observer costs a whole comparison and misses nothing")
  func test_G6_trackedSetWithACopyKeptAlive() {
    let probe = Probe(initial: State(requests: TrackedSet(Self.names(0..<100))), monitored: false)
    let kept = Log<State>()
    let observation = probe.system.observe { state in kept.append(state) }
    for step in 0..<20 {
      probe.system.send(.change(removing: ["k\(step)"], adding: ["k\(100 + step)"]))
    }
    probe.settle()
    #expect(probe.starts.entries.count == 120)
    #expect(Set(probe.cancellations.entries) == Set(Self.names(0..<20)))
    #expect(probe.system.runningTaskCount == 100)
    #expect(kept.entries.last?.requests == TrackedSet(Self.names(20..<120)))
    observation.cancel()
    probe.system.stop()
  }

  /// A request that counts how often it is hashed.
  struct CountedRequest: Hashable, Sendable {
    let value: Int
    let hashes: Log<Int>

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.value == rhs.value }

    func hash(into hasher: inout Hasher) {
      hashes.append(value)
      hasher.combine(value)
    }
  }

  /// Hashes per event of a window of `count` requests sliding by one.
  static func hashesPerEvent(requests count: Int) -> Int {
    struct Window: Sendable, Equatable {
      var requests: TrackedSet<CountedRequest>
      var low: Int
    }
    let hashes = Log<Int>()
    let system = System(
      initial: Window(requests: TrackedSet((0..<count).map { CountedRequest(value: $0, hashes: hashes) }), low: 0),
      reduce: { (window: inout Window, _: Int) in
        window.requests.remove(CountedRequest(value: window.low, hashes: hashes))
        window.requests.insert(CountedRequest(value: window.low + count, hashes: hashes))
        window.low += 1
      },
      feedbacks: [.requests(\.requests) { _ in .none }])
    // The first event also delivers the initial state, whose requests all
    // start: it is left out of the count.
    system.send(0)
    hashes.removeAll()
    for event in 1...100 { system.send(event) }
    let perEvent = hashes.entries.count / 100
    system.stop()
    return perEvent
  }

  @Test(
    "G6 TrackedSet requests: an event that changes two requests hashes a few requests, among 100 or among 10,000",
    arguments: [100, 1_000, 10_000])
  func test_G6_trackedSetWorkIndependentOfCount(requests: Int) {
    // Measured 9, 11 and 14: the set's and the table's own probing, whose
    // clusters grow a little with their load. Comparing whole sets would
    // hash every request.
    #expect(Self.hashesPerEvent(requests: requests) <= 32)
  }
}
