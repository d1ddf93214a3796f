import FeedbackLoop
import FeedbackLoopDeclarative

/// Which declared transitions of a chart a test suite took: make the
/// systems under test from ``recording(_:)``, then check
/// ``untakenTransitions`` (in your own CI, say).
///
/// ```swift
/// let coverage = ChartCoverage(of: Player.chart)
/// let player = coverage.recording(Player.chart).start(context: Player())
/// player.send(.loaded)
/// ...
/// #expect(coverage.untakenTransitions == [])
/// ```
public final class ChartCoverage: Sendable {
  private let descriptions: [String]
  private let taken: Locked<Set<Int>>

  /// Coverage of `chart`'s transitions, none taken yet.
  public init<Context, Event>(of chart: Statechart<Context, Event>) {
    descriptions = (0..<chart.transitionCount).map(chart.describeTransition)
    taken = Locked([])
  }

  /// `chart` (the one this coverage was made of), recording each
  /// transition it takes here.
  public func recording<Context, Event>(_ chart: Statechart<Context, Event>) -> Statechart<Context, Event> {
    chart.observingTransitions { [taken] index in _ = taken.withLock { $0.insert(index) } }
  }

  /// The transitions taken, in document order, as the diagrams write them.
  public var takenTransitions: [String] {
    let taken = taken.withLock { $0 }
    return descriptions.indices.filter(taken.contains).map { descriptions[$0] }
  }

  /// The transitions never taken, in document order.
  public var untakenTransitions: [String] {
    let taken = taken.withLock { $0 }
    return descriptions.indices.filter { !taken.contains($0) }.map { descriptions[$0] }
  }

  /// A line per transition, `✓` or `✗`, then the ratio.
  public var report: String {
    let taken = taken.withLock { $0 }
    let lines = descriptions.indices.map { (taken.contains($0) ? "✓ " : "✗ ") + descriptions[$0] }
    return (lines + ["\(taken.count)/\(descriptions.count) transitions taken"]).joined(separator: "\n")
  }
}
