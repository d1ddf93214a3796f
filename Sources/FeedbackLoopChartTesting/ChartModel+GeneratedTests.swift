import FeedbackLoop
import FeedbackLoopDeclarative
import FeedbackLoopTesting

/// What the generated tests found: the paths walked, and every step after
/// which the running system's configuration was not the model's.
public struct GeneratedTestsReport<Event: Sendable>: Sendable {
  /// The paths walked, each from a new system.
  public let paths: [[ChartStep<Event>]]
  /// One line per divergence between the system and the model.
  public let divergences: [String]
}

extension ChartModel where Context: Equatable {
  /// Walks ``transitionTour()`` on the chart running as a `System` in a
  /// `TestSystem` (a test clock drives its delays), and after every step
  /// calls the assertion given for each active state. A step after which
  /// the system's configuration differs from the model's is reported.
  /// Transitions taken are recorded in `coverage`.
  ///
  /// ```swift
  /// let report = model.runGeneratedTests(coverage: coverage, assertions: [
  ///   "paused": { #expect(!$0.context.isPlaying) },
  ///   "hidden": { #expect(!$0.context.isHUDVisible) },
  /// ])
  /// #expect(report.divergences == [])
  /// #expect(coverage.untakenTransitions == [])
  /// ```
  public func runGeneratedTests(
    coverage: ChartCoverage? = nil,
    assertions: [String: (ChartSnapshot<Context>) -> Void]
  ) -> GeneratedTestsReport<Event> {
    let paths = transitionTour()
    let recorded = coverage?.recording(chart) ?? chart
    var divergences: [String] = []
    for (number, path) in paths.enumerated() {
      let test = TestSystem(clock: TestClock(executor: ManualTaskExecutor()), exhaustivity: .off) {
        [context] environment, monitor in
        recorded.start(context: context, environment: environment, monitor: monitor)
      }
      var expected = initialTimedState()
      check(test.state, assertions)
      for (position, step) in path.enumerated() {
        switch step {
        case .send(let event): test.send(.event(event))
        case .wait(let delay): test.advance(by: delay)
        }
        _ = chart.apply(step, to: &expected)
        if test.state.configurationID != expected.chart.configurationID {
          divergences.append(
            "path \(number + 1), step \(position + 1) (\(step)): the system is in \(test.state.activeLeaves), "
              + "the model in \(expected.chart.activeLeaves)")
          break
        }
        check(test.state, assertions)
      }
      test.finish()
    }
    return GeneratedTestsReport(paths: paths, divergences: divergences)
  }

  private func check(_ state: ChartSnapshot<Context>, _ assertions: [String: (ChartSnapshot<Context>) -> Void]) {
    for id in state.activeStates { assertions[id]?(state) }
  }
}
