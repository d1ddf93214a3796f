import FeedbackLoop
import FeedbackLoopChartTesting
import FeedbackLoopDeclarative
import FeedbackLoopScenarios
import FeedbackLoopTesting
import Testing

private typealias Player = PlayerChart

private let allEvents: [Player.Event] = [.loaded, .play, .pause, .tap, .introStarted, .skip, .seekFinished, .stop]

@Suite(.runsLeftoverJobs) struct ModelBasedTestingTests {
  private var model: ChartModel<Player.Context, Player.Event> {
    var model = ChartModel(chart: Player.chart, context: Player.Context(), events: allEvents)
    // The countdown's guard reads the seconds left: tell them apart.
    model.distinguishing = { $0.secondsLeft }
    return model
  }

  @Test("Shortest paths: the fewest steps to every state, time included")
  func shortestPaths() {
    let paths = model.shortestPaths()
    #expect(paths["loading"] == [])
    #expect(paths["paused"] == [.send(.loaded), .send(.pause)])
    #expect(paths["hudHidden"] == [.send(.loaded), .send(.tap)])
    #expect(paths["stopped"] == [.send(.loaded), .send(.stop)])
    #expect(paths["introSkipped"] == [.send(.loaded), .send(.introStarted), .send(.skip), .send(.seekFinished)])
    // Every state but the history pseudo-state is reached.
    #expect(Set(Player.chart.stateIDs).subtracting(paths.keys) == ["resume"])
  }

  @Test("Shortest paths: a delay's path waits exactly until it expires")
  func shortestPathThroughTime() {
    let chart = try! Statechart<Int, Key>("chart", initial: "a") {
      ChartState("a") { Transition(after: .seconds(2), to: "b") }
      ChartState("b") { Transition(after: .milliseconds(500), to: "c") }
      ChartState("c")
    }
    let paths = ChartModel(chart: chart, context: 0, events: []).shortestPaths()
    #expect(paths["c"] == [.wait(.seconds(2)), .wait(.milliseconds(500))])
  }

  @Test("Simple paths: every path between two states that visits no state of the model twice")
  func simplePaths() {
    let chart = try! Statechart<Int, Key>("chart", initial: "a") {
      ChartState("a") {
        Transition(on: .go, to: "b")
        Transition(on: .other, to: "c")
      }
      ChartState("b") { Transition(on: .go, to: "c") }
      ChartState("c") { Transition(on: .back, to: "a") }
    }
    let paths = ChartModel(chart: chart, context: 0, events: [.go, .back, .other]).simplePaths(from: "a", to: "c")
    #expect(paths == [[.send(.go), .send(.go)], [.send(.other)]])
  }

  @Test("Generated tests: the tour takes every transition the model can take, and the system agrees with the model")
  func generatedTestsCoverTheChart() {
    let coverage = ChartCoverage(of: Player.chart)
    let visited = Locked<Set<String>>([])
    let report = model.runGeneratedTests(
      coverage: coverage,
      assertions: [
        "countdown": { state in
          visited.withLock { _ = $0.insert("countdown") }
          #expect((1...10).contains(state.context.secondsLeft))
        },
        "hudVisible": { state in
          visited.withLock { _ = $0.insert("hudVisible") }
          #expect(state.context.interactions >= 1)
        },
        "stopped": { state in
          visited.withLock { _ = $0.insert("stopped") }
          #expect(!state.isActive("playing") && !state.isActive("paused"))
        },
      ])
    #expect(report.divergences == [])
    #expect(!report.paths.isEmpty)
    #expect(visited.withLock { $0 } == ["countdown", "hudVisible", "stopped"])
    #expect(coverage.untakenTransitions == [])
  }

  @Test("Transition coverage: the transitions a suite never took are reported")
  func coverageReportsUntaken() {
    let coverage = ChartCoverage(of: Player.chart)
    let test = TestSystem(clock: TestClock(executor: ManualTaskExecutor()), exhaustivity: .off) {
      environment, monitor in
      coverage.recording(Player.chart).start(context: Player.Context(), environment: environment, monitor: monitor)
    }
    test.send(.event(.loaded))
    test.send(.event(.pause))
    test.advance(by: .seconds(3))
    test.finish()
    #expect(
      coverage.takenTransitions == [
        "loading --loaded--> loaded", "playing --pause--> paused",
        "hudVisible --pause--> hudVisible", "hudVisible --after 3.0 seconds--> hudHidden",
      ])
    #expect(coverage.untakenTransitions.contains("paused --play--> playing"))
    #expect(coverage.untakenTransitions.count == Player.chart.transitionCount - 4)
    #expect(coverage.report.hasSuffix("4/\(Player.chart.transitionCount) transitions taken"))
  }

  @Test("Random walks: a broken invariant is shrunk to a minimal failing sequence")
  func randomWalksShrink() {
    // "The HUD is visible whenever the video is paused" does not hold:
    // pausing shows the HUD, but a tap, or 3 s, hides it while paused.
    let failure = model.randomWalks(walks: 200, length: 30, seed: 42) { state in
      !state.isActive("paused") || state.isActive("hudVisible")
    }
    #expect(failure?.steps.count == 3)
    // Either a tap or the HUD's 3 s delay hides it while paused.
    let steps = failure?.steps ?? []
    #expect(steps.count == 3)
    #expect(steps.first == .send(.loaded))
    #expect(steps.contains(.send(.pause)))
    #expect(steps.contains(.send(.tap)) || steps.contains(.wait(.seconds(3))))
    #expect((failure?.originalLength ?? 0) >= 3)
  }

  @Test("Random walks: an invariant that holds finds nothing")
  func randomWalksHold() {
    let failure = model.randomWalks(walks: 50, length: 40, seed: 1) { state in
      state.activeLeaves.count == 1 || state.activeLeaves.count == 3
    }
    #expect(failure == nil)
  }
}
