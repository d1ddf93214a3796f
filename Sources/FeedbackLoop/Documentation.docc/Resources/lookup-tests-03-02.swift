import FeedbackLoop
import FeedbackLoopTesting
import Testing

@Suite struct LookupTests {
  /// A dictionary that knows every word, and answers at once.
  let service = Lookup.Service { word in "\(word): a word." }

  @Test func aWordIsDefinedAfterAPauseInTheTyping() {
    let lookup = TestSystem(
      initial: Lookup.State(), reduce: Lookup.reduce, feedbacks: Lookup.feedbacks(service: service))

    lookup.send(.wordChanged("swift")) { $0.word = "swift" }
    lookup.advance(by: .milliseconds(300))
    lookup.receive(.defined("swift: a word.")) { $0.definition = "swift: a word." }
    lookup.finish()
  }

  @Test func aNewWordCancelsTheLookUpOfTheWordBefore() {
    let lookup = TestSystem(
      initial: Lookup.State(), reduce: Lookup.reduce, feedbacks: Lookup.feedbacks(service: service))

    lookup.send(.wordChanged("sw")) { $0.word = "sw" }
    lookup.advance(by: .milliseconds(200))
    lookup.send(.wordChanged("swift")) { $0.word = "swift" }
    lookup.advance(by: .milliseconds(300))
    // Only the last word is defined: the look-up of "sw" was cancelled.
    lookup.receive(.defined("swift: a word.")) { $0.definition = "swift: a word." }
    lookup.finish()
  }
}
