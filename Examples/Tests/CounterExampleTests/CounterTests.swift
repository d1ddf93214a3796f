import CounterExample
import FeedbackLoopTesting
import Testing

@Suite("Counter: ReactiveFeedback's increment and decrement")
struct CounterTests {
  @Test func eachTapOfPlusIncrementsAndEachTapOfMinusDecrements() {
    let plus = Button()
    let minus = Button()
    let counter = TestSystem(
      initial: 0, reduceReturning: Counter.reduce, feedbacks: Counter.feedbacks(plus: plus, minus: minus))
    plus.tap()
    counter.receive(.increment) { $0 = 1 }
    plus.tap()
    counter.receive(.increment) { $0 = 2 }
    minus.tap()
    counter.receive(.decrement) { $0 = 1 }
    counter.finish()
  }

  @Test func tapsMadeBeforeTheSystemReadsThemAreKeptInOrder() {
    let plus = Button()
    let minus = Button()
    plus.tap()
    plus.tap()
    let counter = TestSystem(
      initial: 10, reduceReturning: Counter.reduce, feedbacks: Counter.feedbacks(plus: plus, minus: minus))
    counter.receive(.increment) { $0 = 11 }
    counter.receive(.increment) { $0 = 12 }
    counter.finish()
  }

  @Test func theButtonsAreFeedbacksThatStopWithTheSystem() {
    let plus = Button()
    let minus = Button()
    let counter = TestSystem(
      initial: 0, reduceReturning: Counter.reduce, feedbacks: Counter.feedbacks(plus: plus, minus: minus))
    counter.finish()
    plus.tap()
    #expect(counter.state == 0)
  }

  @Test func theTransitions() {
    let transitions = TransitionAssertions(reduceReturning: Counter.reduce)
    transitions.assertThat(from: 0, on: .increment, newStateIs: 1)
    transitions.assertThat(from: 0, on: .decrement, newStateIs: -1)
    transitions.assertThat(from: -5, on: .increment, newStateIs: -4)
  }
}
