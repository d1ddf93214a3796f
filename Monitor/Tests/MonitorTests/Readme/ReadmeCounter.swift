import FeedbackLoop
import FeedbackLoopDebugging
import FeedbackLoopMonitorClient

/// A counter whose State and Event are `Codable`, and whose Event can carry
/// a state: the jump that time travel sends through the reducer.
enum ReadmeCounter {
  struct State: Codable, Equatable, Sendable {
    var count = 0
  }

  enum Event: Codable, Equatable, Sendable, TimeTravelEvent {
    case increment
    case decrement
    case travel(to: State)

    var travelDestination: State? {
      if case .travel(let state) = self { state } else { nil }
    }
  }

  static func reduce(_ state: inout State, _ event: Event) {
    switch event {
    case .increment: state.count += 1
    case .decrement: state.count -= 1
    case .travel: break  // TimeTravel.reducer sets the state itself.
    }
  }
}

/// Runs a counter connected to the monitor: `secret` and `port` are what
/// `feedbackloop-monitor` printed after "applications:".
func runCounterWithTheMonitor(secret: String, port: Int = 7_071) async throws -> (
  System<ReadmeCounter.State, ReadmeCounter.Event>, MonitorClient
) {
  let recorder = Recorder<ReadmeCounter.State, ReadmeCounter.Event>(capacity: 1_000, system: "counter")
  let counter = System(
    initial: ReadmeCounter.State(), reduce: TimeTravel.reducer(ReadmeCounter.reduce), feedbacks: [],
    monitor: recorder.monitor)
  let link = try await MonitorClient.connect(port: port, secret: secret, system: counter, recorder: recorder)
  counter.send(.increment)
  return (counter, link)
}
