import FeedbackLoopChartTesting
import FeedbackLoopDeclarative
import Testing

/// The declarative layer's enums that are closed for good (CONTRIBUTING.md,
/// "Public enums"): switched over without a `default`, so that a new case
/// fails this file's build.
@Suite("Closed enums of the declarative layer")
struct ClosedEnumsTests {
  @Test("ChartStep is closed: a model-based test sends or waits")
  func chartStepIsClosed() {
    func name(_ step: ChartStep<Int>) -> String {
      switch step {
      case .send(let event): "send \(event)"
      case .wait(let duration): "wait \(duration)"
      }
    }
    #expect([ChartStep<Int>.send(1), .wait(.seconds(2))].map(name) == ["send 1", "wait 2.0 seconds"])
  }

  @Test("StatechartDiagram.Kind is closed: SCXML's kinds of state")
  func diagramKindIsClosed() {
    func name(_ kind: StatechartDiagram.Kind) -> String {
      switch kind {
      case .atomic: "atomic"
      case .compound: "compound"
      case .parallel: "parallel"
      case .final: "final"
      case .shallowHistory: "shallowHistory"
      case .deepHistory: "deepHistory"
      }
    }
    let kinds: [StatechartDiagram.Kind] = [.atomic, .compound, .parallel, .final, .shallowHistory, .deepHistory]
    #expect(kinds.map(name) == kinds.map(\.rawValue))
  }
}
