import FeedbackLoop
import FeedbackLoopScenarios
import FeedbackLoopTesting
import Testing

@testable import FeedbackLoopDebugging

@Suite(.runsLeftoverJobs) struct ReplayTests {
  let harness = Harness()

  @Test("G13 a recorded session replays to identical states")
  func replaysIdentically() {
    let recorder = Recorder<PagedSearch.State, PagedSearch.Event>()
    let system = harness.search(monitor: recorder.monitor)
    harness.recordTwoPages(system)
    let report = Replay.check(recorder.moments, reduce: TimeTravel.reducer(PagedSearch.reduce))
    #expect(report.isIdentical)
    #expect(report.replayed == 4 && report.gaps == 0)
  }

  @Test("G13 a reducer that changed is caught at the first moment that differs, with a diff")
  func reportsFirstDifference() throws {
    let recorder = Recorder<PagedSearch.State, PagedSearch.Event>()
    let system = harness.search(monitor: recorder.monitor)
    harness.recordTwoPages(system)
    // A "new version" that forgets page 2's second result.
    let changed: @Sendable (inout PagedSearch.State, PagedSearch.Event) -> Void = { state, event in
      PagedSearch.reduce(&state, event)
      if case .loaded(2, _) = event { state.results.removeLast() }
    }
    let report = Replay.check(recorder.moments, reduce: changed)
    let divergence = try #require(report.divergence)
    #expect(divergence.moment.sequence == 4)
    #expect(report.replayed == 4)
    #expect(divergence.stateBefore == recorder.moments[3].state)
    #expect(divergence.diff.contains("swift-2-1"))
    #expect(divergence.diff.contains("−"))
    #expect(divergence.description.hasPrefix("moment 4"))
  }

  @Test("replay steps over a gap and goes on from the state after it")
  func gaps() {
    let moments: [Moment<Int, Int>] = [
      Moment(sequence: 0, state: 0), Moment(sequence: 1, event: 2, state: 2),
      Moment(sequence: 5, event: 1, state: 10), Moment(sequence: 6, event: 1, state: 11),
    ]
    let report = Replay.check(moments, reduceReturning: { $0 + $1 })
    #expect(report.isIdentical && report.gaps == 1 && report.replayed == 2)
  }

  @Test("replay counts a gap after the last sequence number (numbers do not wrap) and goes on")
  func gapAfterTheLastSequenceNumber() {
    let moments: [Moment<Int, Int>] = [
      Moment(sequence: 0, state: 0), Moment(sequence: .max - 1, event: 1, state: 1),
      Moment(sequence: .max, event: 1, state: 2), Moment(sequence: 0, event: 1, state: 10),
      Moment(sequence: 1, event: 1, state: 11),
    ]
    let report = Replay.check(moments, reduceReturning: { $0 + $1 })
    #expect(report.isIdentical && report.gaps == 2 && report.replayed == 2)
  }

  @Test("an empty timeline replays nothing")
  func empty() {
    #expect(Replay.check([Moment<Int, Int>](), reduceReturning: { $0 + $1 }).replayed == 0)
  }
}
