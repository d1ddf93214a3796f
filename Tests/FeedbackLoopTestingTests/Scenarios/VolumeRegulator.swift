import FeedbackLoop

/// The speaker volume regulator: two feedbacks step the volume
/// towards a target, one step per state, until it is reached.
enum Volume {
  struct State: Equatable, Sendable {
    var value: Int
  }

  enum Event: Equatable, Sendable {
    case increase
    case decrease
  }

  static func reduce(_ state: State, _ event: Event) -> State {
    switch event {
    case .increase: State(value: state.value + 1)
    case .decrease: State(value: state.value - 1)
    }
  }

  /// Feedbacks' `.queue` is `.queue` here.
  static func feedbacks(target: Int) -> [Feedback<State, Event>] {
    [
      Feedback.predicate({ _ in true }, whenFalse: .keepRunning, strategy: .queue, name: "increase") { state in
        state.value >= target ? .none : .send(.increase)
      },
      Feedback.predicate({ _ in true }, whenFalse: .keepRunning, strategy: .queue, name: "decrease") { state in
        state.value <= target ? .none : .send(.decrease)
      },
    ]
  }
}
