import FeedbackLoop
import FeedbackLoopTesting
import Synchronization
import Testing

/// Counts the redraws that Observation asks for.
final class Redraws: Sendable {
  private let count = Atomic(0)
  func redraw() { count.add(1, ordering: .relaxed) }
  var total: Int { count.load(ordering: .relaxed) }
}

@Suite struct ScreenTests {
  @MainActor
  @Test func theScreenRedrawsWhenTheWordAndItsDefinitionChange() {
    let executor = ManualTaskExecutor()
    let clock = TestClock(executor: executor)
    let store = Screen.makeStore(
      service: Lookup.Service { word in "\(word): a word." },
      environment: SystemEnvironment(clock: clock, effectExecutor: executor))
    let redraws = Redraws()

    #expect(Screen.draw(store, redraw: redraws.redraw) == ": …")
    store.send(.lookup(.wordChanged("swift")))
    #expect(redraws.total == 1)
    #expect(Screen.draw(store, redraw: redraws.redraw) == "swift: …")

    executor.runUntilIdle()
    clock.advance(by: .milliseconds(300))  // the pause in the typing: the definition is sent
    store.processQueuedEvents()  // and reduced
    #expect(redraws.total == 2)
    #expect(Screen.draw(store, redraw: redraws.redraw) == "swift: swift: a word.")
  }
}
