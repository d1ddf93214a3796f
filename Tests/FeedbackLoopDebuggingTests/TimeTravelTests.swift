import FeedbackLoop
import FeedbackLoopScenarios
import FeedbackLoopTesting
import Testing

@testable import FeedbackLoopDebugging

@Suite(.runsLeftoverJobs) struct TimeTravelTests {
  let harness = Harness()

  func started(_ moment: Moment<PagedSearch.State, PagedSearch.Event>?) -> [EffectReference] {
    moment?.effects.filter { $0.kind == .started }.map(\.effect) ?? []
  }

  @Test("G4 a jump back to 'loading page 2' restarts that request, through the reducer")
  func jumpBackRestartsRequest() {
    let recorder = Recorder<PagedSearch.State, PagedSearch.Event>()
    let system = harness.search(monitor: recorder.monitor)
    harness.recordTwoPages(system)
    let machine = TimeMachine(system: system, recorder: recorder)
    let loadingPage2 = recorder.moment(3)!.state
    #expect(loadingPage2.loadingPage == 2)

    #expect(machine.jump(to: 3))
    #expect(system.state == loadingPage2)
    let jump = recorder.moments.last!
    #expect(jump.sequence == 5)
    #expect(jump.event == .travel(to: loadingPage2))  // an event like any other
    #expect(started(jump).map(\.trigger) == [#"PageRequest(query: "swift", page: 2)"#])

    harness.clock.advance(by: .seconds(1))
    #expect(system.state == recorder.moment(4)!.state)  // page 2 loaded again
    #expect(recorder.moments.last?.event == .loaded(page: 2, results: ["swift-2-0", "swift-2-1"]))
  }

  @Test("G4 a jump away from a loading state cancels its request, and its result never arrives")
  func jumpAwayCancels() {
    let recorder = Recorder<PagedSearch.State, PagedSearch.Event>()
    let system = harness.search(monitor: recorder.monitor)
    harness.recordTwoPages(system)
    let machine = TimeMachine(system: system, recorder: recorder)
    machine.jump(to: 3)  // loading page 2
    harness.clock.advance(by: .milliseconds(500))
    machine.jump(to: 2)  // page 1 shown, nothing loading
    let away = recorder.moments.last!
    #expect(away.effects.map(\.kind) == [.cancelled])
    #expect(away.effects.first?.effect.trigger == #"PageRequest(query: "swift", page: 2)"#)
    harness.clock.advance(by: .seconds(5))
    #expect(system.state == recorder.moment(2)!.state)
    #expect(recorder.moments.last?.sequence == away.sequence)
  }

  @Test("playback: recorded events recompute, recorded states are set, both through the reducer")
  func playback() {
    let recorder = Recorder<PagedSearch.State, PagedSearch.Event>()
    let system = harness.search(monitor: recorder.monitor)
    harness.recordTwoPages(system)
    let machine = TimeMachine(system: system, recorder: recorder)
    let recorded = recorder.moments

    #expect(machine.playEvents(from: 1, through: 4) == 3)
    harness.settle()
    #expect(system.state == recorded[4].state)
    // The jump to moment 1 then the three events: the reducer recomputed them.
    #expect(recorder.moments.suffix(4).map(\.state) == Array(recorded[1...4].map(\.state)))

    #expect(machine.playStates(from: 2, through: 3) == 2)
    #expect(system.state == recorded[3].state)
    #expect(
      recorder.moments.suffix(2).map(\.event) == [.travel(to: recorded[2].state), .travel(to: recorded[3].state)])
  }

  @Test("an edited state is applied like a jump; a moment no longer recorded is refused")
  func editedState() {
    let recorder = Recorder<PagedSearch.State, PagedSearch.Event>(capacity: 2)
    let system = harness.search(monitor: recorder.monitor)
    harness.recordTwoPages(system)
    let machine = TimeMachine(system: system, recorder: recorder)
    #expect(!machine.jump(to: 0))
    var edited = system.state
    edited.query = "kotlin"
    edited.loadingPage = 1
    machine.jump(toState: edited)
    #expect(system.state == edited)
    #expect(started(recorder.moments.last).map(\.trigger) == [#"PageRequest(query: "kotlin", page: 1)"#])
  }

  @Test("G13 a session with jumps replays identically through the time-travel reducer")
  func replayWithJumps() {
    let recorder = Recorder<PagedSearch.State, PagedSearch.Event>()
    let system = harness.search(monitor: recorder.monitor)
    harness.recordTwoPages(system)
    TimeMachine(system: system, recorder: recorder).jump(to: 3)
    harness.clock.advance(by: .seconds(1))
    #expect(Replay.check(recorder.moments, reduce: TimeTravel.reducer(PagedSearch.reduce)).isIdentical)
  }
}
