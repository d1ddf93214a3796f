import FeedbackLoop

extension Counter {
  /// One feedback per button, as in the ReactiveFeedback README: each binds
  /// its button's taps, for the system's lifetime, as events.
  ///
  /// - Parameters:
  ///   - plus: the button whose taps increment the count.
  ///   - minus: the button whose taps decrement it.
  public static func feedbacks(plus: Button, minus: Button) -> [Feedback<State, Event>] {
    [
      .input(plus.taps.map { _ in Event.increment }, name: "plus button"),
      .input(minus.taps.map { _ in Event.decrement }, name: "minus button"),
    ]
  }
}
