import FeedbackLoop
import FeedbackLoopDeclarative
import FeedbackLoopTesting
import Testing

@Suite(.runsLeftoverJobs) struct LoadingExampleTests {
  // MARK: The Feedbacks library's protocol style

  @Test func aPageLoadsAfterItsDelayOnTheTestClock() {
    let executor = ManualTaskExecutor()
    let clock = TestClock(executor: executor)
    let system = Loader.system { page, clock in
      try await clock.sleep(for: .seconds(1))
      return ["page \(page)"]
    }.start(environment: SystemEnvironment(clock: clock, effectExecutor: executor))
    executor.runUntilIdle()
    #expect(system.state as? Loader.LoadingState == Loader.LoadingState(page: 1))
    clock.advance(by: .seconds(1))
    #expect(system.state as? Loader.LoadedState == Loader.LoadedState(page: 1, data: ["page 1"]))
    system.send(Loader.RefreshEvent())
    #expect(system.state as? Loader.LoadingState == Loader.LoadingState(page: 1))
    clock.advance(by: .seconds(1))
    #expect(system.state as? Loader.LoadedState == Loader.LoadedState(page: 1, data: ["page 1"]))
  }

  @Test func aFailureLeadsToTheErrorStateAndAnyEventRetries() {
    let executor = ManualTaskExecutor()
    let clock = TestClock(executor: executor)
    let system = Loader.system { _, _ in throw Loader.Failure() }.start(
      environment: SystemEnvironment(clock: clock, effectExecutor: executor))
    executor.runUntilIdle()
    #expect(system.state is Loader.ErrorState)
    system.send(Loader.RefreshEvent())  // AnyEvent: back to loading, which fails again
    executor.runUntilIdle()
    #expect(system.state is Loader.ErrorState)
  }

  @Test func theFeedbacksLibrarysTransitionsOneByOne() {
    let transitions = Loader.transitions
    let loaded = transitions.reduce(Loader.LoadingState(page: 2), Loader.DataIsLoaded(data: ["x"]))
    #expect(loaded as? Loader.LoadedState == Loader.LoadedState(page: 2, data: ["x"]))
    #expect(transitions.reduce(Loader.LoadingState(page: 2), Loader.LoadingHasFailed()) is Loader.ErrorState)
    let refreshed = transitions.reduce(Loader.LoadedState(page: 2, data: []), Loader.RefreshEvent())
    #expect(refreshed as? Loader.LoadingState == Loader.LoadingState(page: 2))
    // No transition: the state is kept.
    #expect(transitions.nextState(from: Loader.LoadedState(page: 2, data: []), on: Loader.LoadingHasFailed()) == nil)
  }

  // MARK: Enums, with the testing kit

  @Test func theEnumStyleWithTheTestingKit() {
    let clock = TestClock(executor: ManualTaskExecutor())
    let pages = TestSystem(clock: clock) { environment, monitor in
      Pages.declaration { page in
        try await clock.sleep(for: .seconds(1))
        return ["item \(page)"]
      }.start(environment: environment, monitor: monitor)
    }
    pages.advance(by: .seconds(1))
    pages.receive(.loaded(["item 1"])) { $0 = .loaded(page: 1, items: ["item 1"]) }
    pages.send(.refresh) { $0 = .loading(page: 1) }
    pages.advance(by: .seconds(1))
    pages.receive(.loaded(["item 1"])) { $0 = .loaded(page: 1, items: ["item 1"]) }
    pages.send(.failed)  // no transition from loaded on failed: unchanged
    pages.finish()
  }

  @Test func theEnumStyleFailsAndRetriesOnAnyEvent() {
    let pages = TestSystem { environment, monitor in
      Pages.declaration { _ in throw Loader.Failure() }.start(environment: environment, monitor: monitor)
    }
    pages.receive(.failed) { $0 = .failed(page: 1) }
    pages.send(.refresh) { $0 = .loading(page: 1) }
    pages.receive(.failed) { $0 = .failed(page: 1) }
    pages.finish()
  }

  @Test func theTestingKitsTransitionAssertionsApply() {
    let transitions = TransitionAssertions(reduceReturning: Pages.declaration { _ in [] }.transitions.reduce)
    transitions.assertThat(from: .loading(page: 3), on: .loaded(["a"]), newStateIs: .loaded(page: 3, items: ["a"]))
    transitions.assertThat(from: .failed(page: 3), on: .refresh, newStateIs: .loading(page: 3))
    transitions.assertThatStateIsUnchanged(from: .loaded(page: 3, items: []), on: .failed)
  }
}
