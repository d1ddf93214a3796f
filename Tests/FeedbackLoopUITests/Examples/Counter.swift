import FeedbackLoop

/// The counter of the store article: a count, a step, and a timer that adds
/// the step every second while it is on.
enum Counter {
  struct State: Equatable, Sendable {
    var count = 0
    var step = 1
    var isTimerOn = false
  }

  enum Event: Equatable, Sendable {
    case increment
    case decrement
    case stepChanged(Int)
    case timerToggled(Bool)
    case tick
  }

  static func reduce(_ state: inout State, _ event: Event) {
    switch event {
    case .increment, .tick: state.count += state.step
    case .decrement: state.count -= state.step
    case .stepChanged(let step): state.step = max(1, step)
    case .timerToggled(let isOn): state.isTimerOn = isOn
    }
  }

  /// While the timer is on, a tick one second after each count: the query
  /// is the count, so each tick starts the next second.
  static let feedbacks: [Feedback<State, Event>] = [
    Feedback.query({ $0.isTimerOn ? $0.count : nil }) { _ in
      .after(.seconds(1), send: .tick)
    }
  ]
}
