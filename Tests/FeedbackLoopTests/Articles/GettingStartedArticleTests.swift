import FeedbackLoop
import FeedbackLoopScenarios
import FeedbackLoopTesting
import Testing

@Suite(.runsLeftoverJobs) struct GettingStartedArticleTests {
  @Test("the Getting Started article shows the code these tests compile, block by block")
  func articleShowsThisCode() throws {
    let article = try ArticleCode(article: "Sources/FeedbackLoop/Documentation.docc/GettingStarted.md")
    #expect(article.blocks.count >= 8)
    let missing = try article.blocksMissing(
      fromAnyOf: [
        "Tests/FeedbackLoopTests/Articles/GettingStartedArticle.swift",
        "Tests/FeedbackLoopTests/Articles/GettingStartedArticleTests.swift",
      ],
      namespace: "GettingStarted")
    #expect(missing.isEmpty, "blocks of the article that no test compiles:\n\(missing.joined(separator: "\n---\n"))")
  }

  @Test("G11: the fake server answers on the test clock, and retry after an outage loads the page that failed")
  func retryAfterAnOutage() {
    let executor = ManualTaskExecutor()
    let clock = TestClock(executor: executor)
    let outage = GettingStarted.Outage()
    let userActions = Input<GettingStarted.Event>()
    let nearBottom = AsyncStream<Void>.makeStream()
    let search = GettingStarted.makeSearch(
      api: .fake(clock: clock, outage: outage),
      userActions: userActions,
      nearBottom: nearBottom.stream,
      environment: SystemEnvironment(clock: clock, effectExecutor: executor)
    )

    userActions.send(.newSearch("swift"))
    clock.advance(by: .milliseconds(299))
    #expect(search.state == .loadingPage(.firstPage(of: "swift")))
    clock.advance(by: .milliseconds(1))  // the fake server answers after 300 ms
    #expect(search.state.context.results == ["swift 1.1", "swift 1.2"])

    outage.isOn = true
    nearBottom.continuation.yield()  // the list reaches its bottom
    clock.advance(by: .milliseconds(300))
    #expect(search.state == .error(search.state.context))
    #expect(search.state.context.results.count == 2)  // an error keeps the results

    outage.isOn = false
    userActions.send(.retry)
    clock.advance(by: .milliseconds(300))
    #expect(search.state.context.results == ["swift 1.1", "swift 1.2", "swift 2.1", "swift 2.2"])
  }

  @Test("G4: a new search while a page loads cancels it; its answer never arrives")
  func newSearchCancelsThePageInFlight() {
    let executor = ManualTaskExecutor()
    let clock = TestClock(executor: executor)
    let userActions = Input<GettingStarted.Event>()
    let search = GettingStarted.makeSearch(
      api: .fake(clock: clock, outage: GettingStarted.Outage()),
      userActions: userActions,
      nearBottom: AsyncStream<Void>.makeStream().stream,
      environment: SystemEnvironment(clock: clock, effectExecutor: executor)
    )
    userActions.send(.newSearch("swift"))
    clock.advance(by: .milliseconds(200))
    userActions.send(.newSearch("kotlin"))
    clock.advance(by: .milliseconds(1_000))
    #expect(
      search.state
        == .loadedPage(
          GettingStarted.Context.firstPage(of: "kotlin").merging(
            GettingStarted.Response(results: ["kotlin 1.1", "kotlin 1.2"], nextPage: 2))))
  }

  @Test("retry does nothing unless a page failed")
  func retryOnlyAfterAFailure() {
    let loaded = GettingStarted.State.loadedPage(.initial)
    var state = loaded
    GettingStarted.reduce(&state, .retry)
    #expect(state == loaded)
    let loading = GettingStarted.State.loadingPage(.firstPage(of: "swift"))
    state = loading
    GettingStarted.reduce(&state, .retry)
    #expect(state == loading)
  }
}
