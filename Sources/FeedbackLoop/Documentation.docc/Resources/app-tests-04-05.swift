import FeedbackLoop
import FeedbackLoopTesting
import Testing

@Suite struct AppTests {
  let service = Lookup.Service { word in "\(word): a word." }

  @Test func aWordSelectedInTheHistoryIsLookedUpAgain() {
    let app = TestSystem(initial: App.State(), feature: App.feature(service: service))

    app.send(.lookup(.wordChanged("swift"))) { $0.lookup.word = "swift" }
    app.advance(by: .milliseconds(300))
    app.receive(.lookup(.defined("swift: a word."))) {
      $0.lookup.definition = "swift: a word."
      $0.history.words = ["swift"]
    }

    app.send(.lookup(.wordChanged("loop"))) { $0.lookup = Lookup.State(word: "loop") }
    app.advance(by: .milliseconds(300))
    app.receive(.lookup(.defined("loop: a word."))) {
      $0.lookup.definition = "loop: a word."
      $0.history.words = ["loop", "swift"]
    }

    app.send(.history(.selected("swift"))) { $0.lookup = Lookup.State(word: "swift") }
    app.advance(by: .milliseconds(300))
    app.receive(.lookup(.defined("swift: a word."))) {
      $0.lookup.definition = "swift: a word."
      $0.history.words = ["swift", "loop"]
    }
    app.finish()
  }
}
