import FeedbackLoopDeclarative
import FeedbackLoopTesting
import Testing

/// The reducer takes most events from the compiled tables (one key, the
/// same unguarded transition from every active state, masks only) and
/// falls back to SCXML's full selection otherwise. These tests hold the
/// two to the same answers: a chart is run beside a copy of itself that
/// has one more transition, on every event and never enabled, so that
/// every event of the copy matches two keys and takes the full selection.
@Suite(.runsLeftoverJobs) struct StatechartTablesTests {
  struct Context: Sendable, Equatable {
    var log: [String] = []
    var volume = 0
  }

  enum Event: Sendable, Equatable {
    case start, pause, play, tap, volume(Int), finish, reset, stop
  }

  /// Hierarchy, two parallel regions, shallow and deep history, guards on
  /// events, targetless transitions, events with payloads, entry and exit
  /// actions, a delay, final states and done events. Every event is
  /// declared by value, so the chart's own copy matches them by `==`.
  static func chart(fullSelection: Bool) -> Statechart<Context, Event> {
    try! Statechart<Context, Event>("tables", initial: "idle") {
      if fullSelection {
        Transition(on: "any", matching: { _ in true }, guard: "never", { _, _ in false })
      }
      ChartState("idle") {
        Transition(on: .start, to: "running")
        Transition(on: .play, to: "remembered")
        Transition(on: .reset, to: "last")
      }
      ParallelState("running") {
        OnExit { $0.log.append("exit running") }
        Transition(on: .stop, to: "idle")
        Transition(on: .reset, to: "running")
        Transition(whenDoneTo: "idle", action: { $0.log.append("done") })
        Transition(on: .volume(1), action: { context, _ in context.volume += 1 })
        Transition(on: .volume(3), guard: "below 9", { context, _ in context.volume < 9 }) { context, _ in
          context.volume += 3
        }
        ChartState("media", initial: "playing") {
          ChartState("playing") {
            OnEntry { $0.log.append("enter playing") }
            Transition(on: .pause, to: "paused")
            Transition(on: .finish, to: "mediaDone")
            Transition(on: .tap, action: { context, _ in context.log.append("tap while playing") })
          }
          ChartState("paused") {
            Transition(on: .play, to: "playing")
            Transition(on: .play, to: "paused")
            Transition(on: .finish, to: "mediaDone")
          }
          HistoryState("last")
          FinalState("mediaDone")
        }
        ChartState("hud", initial: "shown") {
          ChartState("shown") {
            Transition(on: .tap, to: "hidden")
            Transition(on: .finish, to: "hudDone")
            Transition(after: .seconds(3), to: "hidden")
          }
          ChartState("hidden") {
            Transition(on: .tap, to: "shown")
            Transition(on: .finish, to: "hudDone")
            Transition(on: .pause, to: "shown", guard: "loud", { context, _ in context.volume > 2 })
          }
          FinalState("hudDone")
        }
      }
      ChartState("deep", initial: "outer") {
        Transition(on: .stop, to: "idle")
        ChartState("outer", initial: "a") {
          ChartState("a") { Transition(on: .tap, to: "b") }
          ChartState("b") { Transition(on: .tap, to: "a") }
        }
        HistoryState("remembered", deep: true)
      }
    }
  }

  static let events: [Event] = [
    .start, .pause, .play, .tap, .volume(1), .volume(0), .volume(3), .finish, .reset, .stop,
  ]

  /// Walks `steps` events (and now and then a pending delay's expiry)
  /// drawn from a seeded generator through `reduce`, and returns each state.
  static func walk(
    _ chart: Statechart<Context, Event>, seed: UInt64, steps: Int,
    reduce: (inout ChartSnapshot<Context>, ChartEvent<Event>) -> Void
  ) -> [ChartSnapshot<Context>] {
    var random = seed
    func next() -> Int {
      random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int(random >> 33)
    }
    var state = chart.initialState(context: Context())
    var states = [state]
    for _ in 0..<steps {
      let delays = chart.pendingDelays(in: state)
      if !delays.isEmpty && next() % 5 == 0 {
        reduce(&state, delays[next() % delays.count].expiry)
      } else {
        reduce(&state, .event(events[next() % events.count]))
      }
      states.append(state)
    }
    return states
  }

  /// The unconstrained `reduce`, as a chart whose events are not
  /// `Equatable` runs: each key's matcher asked.
  static func reduceByMatchers<C, E>(
    _ chart: Statechart<C, E>
  ) -> (inout ChartSnapshot<C>, ChartEvent<E>) -> Void {
    { state, event in chart.reduce(&state, event) }
  }

  @Test("The compiled tables and SCXML's full selection agree on every step of random walks")
  func tablesAgreeWithFullSelection() {
    let fast = Self.chart(fullSelection: false)
    let full = Self.chart(fullSelection: true)
    for seed in 0..<40 as Range<UInt64> {
      let byTables = Self.walk(fast, seed: seed, steps: 60) { fast.reduce(&$0, $1) }
      let byMatchers = Self.walk(fast, seed: seed, steps: 60, reduce: Self.reduceByMatchers(fast))
      let bySelection = Self.walk(full, seed: seed, steps: 60) { full.reduce(&$0, $1) }
      #expect(byTables == bySelection, "seed \(seed)")
      #expect(byMatchers == bySelection, "seed \(seed)")
      #expect(byTables.map(\.activeStates) == bySelection.map(\.activeStates), "seed \(seed)")
      #expect(
        byTables.map { fast.pendingDelays(in: $0).map(\.entry) }
          == bySelection.map { full.pendingDelays(in: $0).map(\.entry) }, "seed \(seed)")
    }
  }

  @Test("The walks reach the paths the tables do not take: guards, two transitions, history, done events")
  func walksReachEveryPath() {
    let chart = Self.chart(fullSelection: false)
    var visited = Set<String>()
    var sawDone = false
    var sawLoud = false
    for seed in 0..<40 as Range<UInt64> {
      let states = Self.walk(chart, seed: seed, steps: 60) { chart.reduce(&$0, $1) }
      for state in states { visited.formUnion(state.activeStates) }
      sawDone = sawDone || states.contains { $0.context.log.contains("done") }
      sawLoud = sawLoud || states.contains { $0.context.volume > 2 && $0.isActive("hidden") }
    }
    #expect(visited.isSuperset(of: ["paused", "hidden", "deep", "b", "idle"]))
    #expect(sawDone)
    #expect(sawLoud)
  }

  @Test("A chart with more events than one mask holds (70 keys) calls each candidate's matcher, and agrees")
  func moreThanSixtyFourKeys() {
    let chart = try! Statechart<Int, Int>("many", initial: "even") {
      ChartState("even") {
        for event in 0..<70 {
          if event.isMultiple(of: 2) {
            Transition(on: event, to: "odd")
          } else {
            Transition(on: event, action: { count, _ in count += 1 })
          }
        }
      }
      ChartState("odd") { Transition(on: "any", matching: { _ in true }, to: "even") }
    }
    var state = chart.initialState(context: 0)
    var expectedOdd = false
    var expectedCount = 0
    for event in [3, 68, 5, 69, 0, 1, 70, 2, 7] {
      chart.reduce(&state, .event(event))
      if expectedOdd {
        expectedOdd = false
      } else if event < 70 && event.isMultiple(of: 2) {
        expectedOdd = true
      } else if event < 70 {
        expectedCount += 1
      }
      #expect(state.isActive("odd") == expectedOdd, "after \(event)")
      #expect(state.context == expectedCount, "after \(event)")
    }
  }
}
