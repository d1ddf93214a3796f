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

    // From "page 1 shown": moment 3's .loadNextPage, sent from outside; the
    // request it starts answers page 2 (moment 4) again itself.
    #expect(machine.playEvents(from: 2, through: 4) == 1)
    harness.clock.advance(by: .seconds(1))
    #expect(system.state == recorded[4].state)
    // The jump to moment 2, the event, the effect's answer: the reducer recomputed them.
    #expect(recorder.moments.suffix(3).map(\.state) == Array(recorded[2...4].map(\.state)))
    #expect(recorder.moments.suffix(3).map(\.event) == [.travel(to: recorded[2].state)] + recorded[3...4].map(\.event))

    #expect(machine.playStates(from: 2, through: 3) == 2)
    #expect(system.state == recorded[3].state)
    #expect(
      recorder.moments.suffix(2).map(\.event) == [.travel(to: recorded[2].state), .travel(to: recorded[3].state)])
  }

  @Test("playing events back sends the outside events only: an effect derived again answers once, not twice")
  func playbackSendsOutsideEventsOnly() {
    let recorder = Recorder<Requests.State, Requests.Event>()
    let system = Requests.system(harness, monitor: recorder.monitor)
    system.send(.request("a"))  // 1
    harness.clock.advance(by: .seconds(1))  // 2: the effect answers "r-a"
    let recorded = recorder.moments
    #expect(recorded.map(\.source) == [nil, .external, .effect(recorded[1].effects[0].effect)])

    #expect(TimeMachine(system: system, recorder: recorder).playEvents(from: 0) == 1)
    harness.clock.advance(by: .seconds(5))
    #expect(system.state.answers == ["r-a"])
    #expect(system.state == recorded[2].state)
    #expect(recorder.moments.suffix(2).map(\.event) == [.request("a"), .answered("r-a")])
    #expect(recorder.moments.last?.source.map { if case .effect = $0 { true } else { false } } == true)
  }

  @Test(
    "an outside event sent after an effect answered: played through the answer, answered, then played on, the session recomputes exactly"
  )
  func playbackOfInterleavedAnswers() {
    let recorder = Recorder<Requests.State, Requests.Event>(clock: harness.clock)
    let system = Requests.system(harness, monitor: recorder.monitor)
    system.send(.request("a"))  // 1
    harness.clock.advance(by: .seconds(1))  // 2: "r-a"
    system.send(.request("b"))  // 3: sent after the answer
    harness.clock.advance(by: .seconds(1))  // 4: "r-b"
    let recorded = recorder.moments
    let machine = TimeMachine(system: system, recorder: recorder)

    // At once, "b" reaches the system before "a"'s request, derived again, answers: it is cancelled.
    #expect(machine.playEvents(from: 0) == 2)
    harness.clock.advance(by: .seconds(5))
    #expect(system.state.answers == ["r-b"])

    // Through moment 2 (the answer: nothing of it sent), let the request answer, then on from there.
    #expect(machine.playEvents(from: 0, through: 2) == 1)
    #expect(system.state.answers == [])
    harness.clock.advance(by: .seconds(1))
    #expect(system.state == recorded[2].state)
    // Through moment 4: the playbacks are recorded after it, and unbounded would be sent again.
    #expect(machine.playEvents(from: 2, through: 4) == 1)
    harness.clock.advance(by: .seconds(1))
    #expect(system.state == recorded[4].state)
    harness.clock.advance(by: .seconds(5))
    #expect(system.state.answers == ["r-a", "r-b"])
    // Each answer came from the request derived again, on the clock, one second after it.
    let answers = recorder.moments.suffix(3)
    #expect(answers.map(\.event) == [.travel(to: recorded[2].state), .request("b"), .answered("r-b")])
    #expect(answers.last?.time.map { $0 - (answers.dropLast().last?.time ?? .zero) } == .seconds(1))
  }

  @Test("playback from a state whose effect is still in flight: the effect goes on, its answer arrives once")
  func playbackWhileTheSameEffectIsInFlight() {
    let recorder = Recorder<Requests.State, Requests.Event>()
    let system = Requests.system(harness, monitor: recorder.monitor)
    system.send(.request("a"))  // 1: the request is in flight
    harness.clock.advance(by: .milliseconds(500))
    #expect(TimeMachine(system: system, recorder: recorder).playEvents(from: 1) == 0)
    harness.clock.advance(by: .milliseconds(500))
    #expect(system.state.answers == ["r-a"])
    harness.clock.advance(by: .seconds(5))
    #expect(system.state.answers == ["r-a"])
  }

  @Test("playing every event back, answers included, is for a system whose effects do not run again")
  func playbackOfEveryEvent() {
    let recorder = Recorder<Requests.State, Requests.Event>()
    let system = Requests.system(harness, monitor: recorder.monitor)
    system.send(.request("a"))
    harness.clock.advance(by: .seconds(1))
    let recorded = recorder.moments
    // The reducer alone, as a system without feedbacks would run it.
    let replayed = Locked(Requests.State())
    let reducerOnly = TimeMachine<Requests.State, Requests.Event>(
      send: { event in replayed.withLock { TimeTravel.reducer(Requests.reduce)(&$0, event) } },
      moments: { recorded })
    #expect(reducerOnly.playEvents(from: 0, sending: .all) == 2)
    #expect(replayed.withLock { $0 } == recorded[2].state)
    // In the live system, the answer sent and the answer derived again: twice.
    #expect(TimeMachine(system: system, recorder: recorder).playEvents(from: 0, sending: .all) == 2)
    harness.clock.advance(by: .seconds(5))
    #expect(system.state.answers == ["r-a", "r-a"])
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

/// A request that an effect answers after a second; the answer leaves the
/// request in the state (the last request made), so the effect, derived
/// again from a replayed request, answers again.
enum Requests {
  struct State: Sendable, Equatable {
    var lastRequest: String?
    var answers: [String] = []
  }

  enum Event: Sendable, Equatable, TimeTravelEvent {
    case request(String)
    case answered(String)
    case travel(to: State)

    var travelDestination: State? {
      if case .travel(let state) = self { state } else { nil }
    }
  }

  static func reduce(_ state: inout State, _ event: Event) {
    switch event {
    case .request(let request): state.lastRequest = request
    case .answered(let answer): state.answers.append(answer)
    case .travel: break  // handled by TimeTravel.reducer
    }
  }

  static func system(_ harness: Harness, monitor: SystemMonitor<State, Event>) -> System<State, Event> {
    System(
      initial: State(), reduce: TimeTravel.reducer(reduce),
      feedbacks: [
        Feedback.query({ $0.lastRequest }, name: "answer") { request in
          .after(.seconds(1), send: .answered("r-" + request))
        }
      ],
      environment: harness.environment, monitor: monitor)
  }
}
