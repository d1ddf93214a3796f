import FeedbackLoop
import FeedbackLoopDebugging
import Testing

@testable import FeedbackLoopMonitorClient

/// The page's "Play events", as the application applies it, in an app whose
/// effect answers with an event the reducer takes every time it comes (a log):
/// the answer must arrive once, from the effect derived again, not once more
/// from the recording.
@Suite struct MonitorPlaybackTests {
  /// Each query is looked up once, one second after it is asked; every answer is logged.
  enum Lookup {
    struct State: Sendable, Equatable, Codable {
      var query = ""
      var answers: [String] = []
    }

    enum Event: Sendable, Equatable, Codable, TimeTravelEvent {
      case ask(String)
      case answered(String)
      case travel(to: State)

      var travelDestination: State? {
        if case .travel(let state) = self { state } else { nil }
      }
    }

    static func reduce(_ state: inout State, _ event: Event) {
      switch event {
      case .ask(let query): state.query = query
      case .answered(let answer): state.answers.append(answer)
      case .travel: break
      }
    }

    static var feedbacks: [Feedback<State, Event>] {
      [
        Feedback.query({ state in state.query.isEmpty ? nil : state.query }, name: "lookup") { query in
          .after(.seconds(1), send: .answered("answer to \(query)"))
        }
      ]
    }
  }

  @Test("the page's play events, applied by the app: an effect's answer arrives once, from the effect run again")
  func playEventsAnswersOnce() {
    let harness = Harness()
    let recorder = Recorder<Lookup.State, Lookup.Event>(clock: harness.clock)
    let system = System(
      initial: Lookup.State(), reduce: TimeTravel.reducer(Lookup.reduce), feedbacks: Lookup.feedbacks,
      environment: harness.environment, monitor: recorder.monitor)
    let machine = TimeMachine(system: system, recorder: recorder)
    system.send(.ask("swift"))
    harness.clock.advance(by: .seconds(1))
    #expect(recorder.moments.map(\.event) == [nil, .ask("swift"), .answered("answer to swift")])

    #expect(MonitorClient.apply(#"{"type":"playEvents","from":0}"#, machine: machine, system: system) == nil)
    // The jump back and the question, sent again; the recorded answer is not.
    #expect(recorder.moments.dropFirst(3).map(\.event) == [.travel(to: Lookup.State()), .ask("swift")])
    harness.clock.advance(by: .seconds(1))
    #expect(recorder.moments.dropFirst(5).map(\.event) == [.answered("answer to swift")])
    #expect(system.state.answers == ["answer to swift"])
    harness.clock.advance(by: .seconds(5))
    #expect(system.state.answers == ["answer to swift"])
  }
}
