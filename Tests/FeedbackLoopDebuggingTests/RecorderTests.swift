import FeedbackLoop
import FeedbackLoopScenarios
import FeedbackLoopTesting
import Foundation
import Testing

@testable import FeedbackLoopDebugging

@Suite(.runsLeftoverJobs) struct RecorderTests {
  let harness = Harness()

  @Test("a moment per reduction: sequence, clock time, event, source, state, effects with their feedback")
  func recordsMoments() {
    let recorder = Recorder<PagedSearch.State, PagedSearch.Event>(clock: harness.clock)
    let system = harness.search(monitor: recorder.monitor)
    harness.recordTwoPages(system)
    let moments = recorder.moments
    #expect(moments.map(\.sequence) == [0, 1, 2, 3, 4])
    #expect(moments.map(\.time) == [.zero, .zero, .seconds(1), .seconds(1), .seconds(2)])
    #expect(moments[0].isStart && moments[0].state == PagedSearch.State())
    #expect(moments[1].event == .search("swift") && moments[1].source == .external)
    #expect(moments[1].state.loadingPage == 1)
    #expect(moments[1].effects.map(\.kind) == [.started])
    #expect(moments[1].effects[0].effect.feedback == FeedbackReference(index: 0, name: "request"))
    #expect(moments[1].effects[0].effect.trigger?.contains("page: 1") == true)
    guard case .effect(let source) = moments[2].source else {
      Issue.record("page 1's results come from the request's effect, not \(String(describing: moments[2].source))")
      return
    }
    #expect(source.feedback.name == "request" && source.number == 1)
    let finished = moments[1...2].flatMap(\.effects).filter { $0.kind == .finished }
    #expect(finished.map(\.effect.number) == [1])
    #expect(moments[4].state.results == ["swift-1-0", "swift-1-1", "swift-2-0", "swift-2-1"])
    system.stop()
    #expect(recorder.moments.last?.stopped == true)
  }

  @Test("G10 the monitor's shortcut for reductions records the same moments as the activity, every source")
  func shortcutRecordsWhatTheActivityDoes() {
    // The recorder's own monitor takes the `.reduced` shortcut; combined,
    // it gets `.reduced` as an activity.
    let direct = Recorder<PagedSearch.State, PagedSearch.Event>(clock: harness.clock)
    let other = Harness()
    let throughActivity = Recorder<PagedSearch.State, PagedSearch.Event>(clock: other.clock)
    let system = harness.search(monitor: direct.monitor)
    let twin = other.search(monitor: .combining([throughActivity.monitor]))
    harness.recordTwoPages(system)
    other.recordTwoPages(twin)
    system.stop()
    twin.stop()
    #expect(direct.moments.count == 5)
    #expect(direct.moments.compactMap(\.source).contains { if case .effect = $0 { true } else { false } })
    #expect(direct.moments.map(\.sequence) == throughActivity.moments.map(\.sequence))
    #expect(direct.moments.map(\.event) == throughActivity.moments.map(\.event))
    #expect(direct.moments.map(\.source) == throughActivity.moments.map(\.source))
    #expect(direct.moments.map(\.state) == throughActivity.moments.map(\.state))
    #expect(direct.moments.map(\.effects) == throughActivity.moments.map(\.effects))
  }

  @Test("G14 the ring keeps the last n moments and counts the ones it let go")
  func boundedRing() {
    let recorder = Recorder<PagedSearch.State, PagedSearch.Event>(capacity: 2)
    let system = harness.search(monitor: recorder.monitor)
    harness.recordTwoPages(system)
    // The ring holds two closed moments; the open one is kept apart.
    #expect(recorder.moments.map(\.sequence) == [2, 3, 4])
    #expect(recorder.evictedCount == 2)
    #expect(recorder.moment(3)?.event == .loadNextPage)
    #expect(recorder.moment(0) == nil)
  }

  @Test("moments round-trip through JSON, the same moments as in memory")
  func codableMoments() throws {
    let recorder = Recorder<PagedSearch.State, PagedSearch.Event>(clock: harness.clock)
    let system = harness.search(monitor: recorder.monitor)
    harness.recordTwoPages(system)
    system.stop()
    let data = try JSONEncoder().encode(recorder.moments)
    let decoded = try JSONDecoder().decode([Moment<PagedSearch.State, PagedSearch.Event>].self, from: data)
    #expect(decoded == recorder.moments)
  }

  @Test("G2 sends from eight threads at once: one moment each, numbered without gaps")
  func concurrentSends() async {
    let recorder = Recorder<Int, Int>(capacity: 10_000)
    let system = System(initial: 0, reduceReturning: { $0 + $1 }, monitor: recorder.monitor)
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<8 {
        group.addTask { for _ in 0..<250 { system.send(1) } }
      }
    }
    while system.state < 2_000 { await Task.yield() }
    let moments = recorder.moments
    #expect(moments.count == 2_001)
    #expect(moments.map(\.sequence) == Array(0...2_000))
    #expect(moments.map(\.state) == Array(0...2_000))
  }

  @Test("a recorder needs nothing of State and Event in memory")
  func nonCodableState() {
    struct Opaque: Sendable { var value: Int }
    let recorder = Recorder<Opaque, Int>()
    let system = System(
      initial: Opaque(value: 0), reduceReturning: { Opaque(value: $0.value + $1) }, monitor: recorder.monitor)
    system.send(3)
    #expect(recorder.moments.map(\.state.value) == [0, 3])
  }
}
