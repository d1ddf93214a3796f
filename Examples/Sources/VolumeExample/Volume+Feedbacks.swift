import FeedbackLoop

extension Volume {
  /// The Feedbacks README's two feedbacks, run for every state with the strategy the
  /// README calls `.queue` (``ExecutionStrategy/queue``): one
  /// increases the volume while it is below `target`, the other decreases it
  /// while it is above.
  ///
  /// - Parameter target: the targeted volume, read by the side effects only.
  public static func feedbacks(target: Int) -> [Feedback<State, Event>] {
    [
      Feedback.predicate({ _ in true }, whenFalse: .keepRunning, strategy: .queue, name: "increase towards \(target)") {
        state in
        state.value >= target ? .none : .send(.increase)
      },
      Feedback.predicate({ _ in true }, whenFalse: .keepRunning, strategy: .queue, name: "decrease towards \(target)") {
        state in
        state.value <= target ? .none : .send(.decrease)
      },
    ]
  }
}
