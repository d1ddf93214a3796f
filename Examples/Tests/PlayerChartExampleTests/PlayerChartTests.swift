import FeedbackLoop
import FeedbackLoopChartTesting
import FeedbackLoopDeclarative
import FeedbackLoopTesting
import PlayerChartExample
import Testing

@Suite struct PlayerChartTests {
  @Test func theDiagramHasNoUnreachableOrStuckState() {
    let diagram = PlayerChart.chart.diagram
    #expect(diagram.unreachableStates == [])
    #expect(diagram.statesWithNoWayOut == [])
    #expect(diagram.mermaid.contains("    state loaded {"))
  }

  @Test func theGeneratedTestsTakeEveryTransition() {
    var model = ChartModel(chart: PlayerChart.chart, context: PlayerChart.Context(), events: PlayerChart.Event.allCases)
    model.distinguishing = { $0.secondsLeft }
    let coverage = ChartCoverage(of: PlayerChart.chart)
    let report = model.runGeneratedTests(
      coverage: coverage,
      assertions: [
        "countdown": { #expect((1...10).contains($0.context.secondsLeft)) },
        "skipping": { #expect($0.context.secondsLeft == 0 || $0.isActive("skipping")) },
        "stopped": { #expect($0.activeLeaves == ["stopped"]) },
      ])
    #expect(report.divergences == [])
    #expect(coverage.untakenTransitions == [])
  }

  @Test func theHUDHidesThreeSecondsAfterTheLastInteraction() {
    let test = TestSystem(clock: TestClock(executor: ManualTaskExecutor()), exhaustivity: .off) {
      environment, monitor in
      PlayerChart.chart.start(context: PlayerChart.Context(), environment: environment, monitor: monitor)
    }
    test.send(.event(.loaded))
    test.advance(by: .seconds(2))
    test.send(.event(.pause))
    test.advance(by: .seconds(2))
    #expect(test.state.isActive("hudVisible"))
    test.advance(by: .seconds(1))
    #expect(test.state.isActive("hudHidden"))
    test.finish()
  }

  @Test func stoppingAndPlayingResumesTheVideoByHistory() {
    var state = PlayerChart.chart.initialState(context: PlayerChart.Context())
    for event in [PlayerChart.Event.loaded, .pause, .stop, .play] { PlayerChart.chart.reduce(&state, .event(event)) }
    #expect(state.activeLeaves == ["paused", "hudVisible", "beforeIntro"])
  }
}
