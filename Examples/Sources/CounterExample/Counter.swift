/// ReactiveFeedback's counter: a number, a plus button and a minus button.
///
/// The README of ReactiveFeedback shows the smallest feedback loop there is:
/// the state is an `Int`, the events are ``Event/increment`` and
/// ``Event/decrement``, and each button is a feedback that turns its taps
/// into events. Nothing here knows about a terminal or a screen.
///
/// ```swift
/// let plus = Button(), minus = Button()
/// let counter = System(
///   initial: 0,
///   reduceReturning: Counter.reduce,
///   feedbacks: Counter.feedbacks(plus: plus, minus: minus)
/// )
/// plus.tap()  // counter.state becomes 1
/// ```
public enum Counter {
  /// The state: the count itself.
  public typealias State = Int
}
