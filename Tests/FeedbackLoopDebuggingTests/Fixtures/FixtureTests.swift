import FeedbackLoop
import FeedbackLoopScenarios
import FeedbackLoopTesting
import Foundation
import Testing

@testable import FeedbackLoopDebugging

@Suite(.runsLeftoverJobs) struct FixtureTests {
  let harness = Harness()

  func recorded() -> [Moment<PagedSearch.State, PagedSearch.Event>] {
    let recorder = Recorder<PagedSearch.State, PagedSearch.Event>()
    let system = harness.search(monitor: recorder.monitor)
    harness.recordTwoPages(system)
    return recorder.moments
  }

  @Test("fixtures from chosen moments: given the state before, when the event, then the state after")
  func fixturesFromMoments() {
    let moments = recorded()
    let fixtures = Fixture.from(moments, selecting: [3, 4])
    #expect(fixtures.map(\.sequence) == [3, 4])
    #expect(fixtures[0] == Fixture(sequence: 3, given: moments[2].state, when: .loadNextPage, then: moments[3].state))
    // Every one holds for the reducer, checked with the testing kit.
    let transitions = TransitionAssertions(reduceInPlace: PagedSearch.reduce)
    for fixture in Fixture.from(moments) {
      transitions.assertThat(from: fixture.given, on: fixture.when, newStateIs: fixture.then)
    }
    #expect(Fixture.from(moments).count == 4)
  }

  @Test("a moment whose previous one is missing has no given, and gives no fixture")
  func missingPredecessor() {
    let moments = Array(recorded().dropFirst(2))
    #expect(Fixture.from(moments).map(\.sequence) == [3, 4])
    #expect(Fixture.from([moments[0], moments[2]]).isEmpty)
  }

  @Test("the generated Swift Testing test reads given / when / then and embeds the JSON")
  func generatedTest() throws {
    let fixtures = Fixture.from(recorded(), selecting: [3])
    let writer = FixtureTestWriter(
      suite: "RecordedSearchTests", module: "SearchApp", stateType: "PagedSearch.State",
      eventType: "PagedSearch.Event", reducer: "PagedSearch.reduce", reducerStyle: .inPlace)
    let source = try writer.source(for: fixtures)
    #expect(source.contains("@testable import SearchApp"))
    #expect(source.contains("@Suite struct RecordedSearchTests {"))
    #expect(source.contains(#"@Test("moment 3: loadNextPage")"#))
    #expect(source.contains("func moment3() throws {"))
    #expect(source.contains("let given = try decode(PagedSearch.State.self, #\""))
    #expect(source.contains(##"let when = try decode(PagedSearch.Event.self, #"{"loadNextPage":{}}"#)"##))
    #expect(
      source.contains(
        "TransitionAssertions(reduceInPlace: PagedSearch.reduce).assertThat(from: given, on: when, newStateIs: then)"))
    // The embedded JSON is the fixture's: decode it back from the literal.
    let thenLiteral = try #require(source.split(separator: "\n").first { $0.contains("let then = ") })
    let json = thenLiteral.split(separator: "#\"", maxSplits: 1)[1].dropLast(3)
    let then = try JSONDecoder().decode(PagedSearch.State.self, from: Data(json.utf8))
    #expect(then == fixtures[0].then)
  }

  @Test("a JSON that holds a quote and a hash gets a literal with more hashes")
  func rawLiteral() {
    #expect(FixtureTestWriter.literal(Data(##"{"a":"x\"#y"}"##.utf8)) == ###"##"{"a":"x\"#y"}"##"###)
    #expect(FixtureTestWriter.escaped("say \"hi\"\n") == #"say \"hi\" "#)
  }
}
