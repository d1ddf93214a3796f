import FeedbackLoop
import FeedbackLoopTesting
import Testing

/// The last step of the chapters whose last step is not a test file of its
/// own, run (the others' test files run as they are: `LookupTests`,
/// `AppTests`, `ScreenTests`, `SessionTests` in `Steps/`).
@Suite struct ChapterTests {
  @Test("chapter 1: the reducer keeps the word typed and forgets the definition of the word before")
  func chapterOneReducer() {
    typealias Lookup = Chapter1Step3.Lookup
    var state = Lookup.State()
    Lookup.reduce(&state, .wordChanged("swift"))
    Lookup.reduce(&state, .defined("swift: a word."))
    #expect(state == Lookup.State(word: "swift", definition: "swift: a word."))
    Lookup.reduce(&state, .wordChanged("loop"))
    #expect(state == Lookup.State(word: "loop", definition: nil))
    Lookup.reduce(&state, .notFound)
    #expect(state.definition == "No definition of loop.")
  }

  @Test("chapter 2: the system looks a word up after a pause in the typing, and only the last word")
  func chapterTwoSystem() {
    typealias Lookup = Chapter2Step4.Lookup
    let executor = ManualTaskExecutor()
    let clock = TestClock(executor: executor)
    let asked = Calls()
    let lookup = Lookup.start(
      service: Lookup.Service { word in
        asked.record(word)
        return "\(word): a word."
      },
      environment: SystemEnvironment(clock: clock, effectExecutor: executor))

    lookup.send(.wordChanged("sw"))
    clock.advance(by: .milliseconds(299))
    lookup.send(.wordChanged("swift"))
    clock.advance(by: .milliseconds(299))
    #expect(lookup.state.definition == nil)
    clock.advance(by: .milliseconds(1))
    #expect(lookup.state == Lookup.State(word: "swift", definition: "swift: a word."))
    #expect(asked.values == ["swift"])
    lookup.stop()
  }

  @Test("chapter 2: a dictionary that fails says so in the state")
  func chapterTwoFailure() {
    typealias Lookup = Chapter2Step4.Lookup
    struct Offline: Error {}
    let executor = ManualTaskExecutor()
    let clock = TestClock(executor: executor)
    let lookup = Lookup.start(
      service: Lookup.Service { _ in throw Offline() },
      environment: SystemEnvironment(clock: clock, effectExecutor: executor))
    lookup.send(.wordChanged("swift"))
    clock.advance(by: .milliseconds(300))
    #expect(lookup.state.definition == "No definition of swift.")
    lookup.stop()
  }
}
