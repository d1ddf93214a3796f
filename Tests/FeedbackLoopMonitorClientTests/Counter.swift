import FeedbackLoop
import FeedbackLoopDebugging

/// A counter whose State and Event are `Codable` and whose Event carries a
/// jump: what `MonitorClient.connect` streams and drives.
enum Counter {
  struct State: Codable, Equatable, Sendable {
    var count = 0
  }

  enum Event: Codable, Equatable, Sendable, TimeTravelEvent {
    case increment
    case travel(to: State)

    var travelDestination: State? {
      if case .travel(let state) = self { state } else { nil }
    }
  }

  static func reduce(_ state: inout State, _ event: Event) {
    switch event {
    case .increment: state.count += 1
    case .travel: break  // TimeTravel.reducer sets the state itself.
    }
  }

  /// A running counter, recorded as the system "counter".
  static func running() -> (System<State, Event>, Recorder<State, Event>) {
    let recorder = Recorder<State, Event>(capacity: 100, system: "counter")
    let counter = System(
      initial: State(), reduce: TimeTravel.reducer(reduce), feedbacks: [], monitor: recorder.monitor)
    return (counter, recorder)
  }
}
